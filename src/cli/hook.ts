import fs from 'node:fs'
import path from 'node:path'
import type {LintMessage} from '../reporters/result.js'
import type {CliIo} from './main.js'

/** The part of a coding agent's post-write hook payload that planlint reads. */
interface HookPayload {
  cwd?: unknown
  tool_input?: {file_path?: unknown; path?: unknown}
}

/** Claude Code's PostToolUse hook output ("PostToolUse Decision Control" in its hooks reference). */
type HookResponse =
  | {decision: 'block'; reason: string}
  | {hookSpecificOutput: {hookEventName: 'PostToolUse'; additionalContext: string}}

const describe = (message: LintMessage) => `  ${message.line}:${message.column}  ${message.message}${message.ruleId ? `  (${message.ruleId})` : ''}`

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`

/** Whether a file lies in a planning tree (has a `.planning` ancestor). */
function inPlanningTree(filePath: string): boolean {
  return path.dirname(filePath).split(path.sep).includes('.planning')
}

/** The response for a file's messages: block on errors, context for warnings, nothing when clean. */
function hookResponse(file: string, messages: LintMessage[]): HookResponse | undefined {
  const errors = messages.filter((message) => message.severity === 2)
  const warnings = messages.filter((message) => message.severity === 1)
  if (errors.length > 0) {
    const lines = [`planlint found ${plural(errors.length, 'error')} in ${file} (fix before going on):`, ...errors.map(describe)]
    if (warnings.length > 0) lines.push(`and ${plural(warnings.length, 'warning')}:`, ...warnings.map(describe))
    return {decision: 'block', reason: lines.join('\n')}
  }
  if (warnings.length > 0) {
    return {
      hookSpecificOutput: {
        hookEventName: 'PostToolUse',
        additionalContext: [`planlint found ${plural(warnings.length, 'warning')} in ${file}:`, ...warnings.map(describe)].join('\n')
      }
    }
  }
  return undefined
}

/**
 * `planlint hook`: lints the file a coding agent just wrote (named in the
 * hook payload on stdin) and answers in the hook's JSON. It never fails the
 * agent's tool call: whatever goes wrong is one line on stderr and exit 0.
 */
export async function runHook(input: string, io: CliIo): Promise<number> {
  let payload: HookPayload
  try {
    payload = JSON.parse(input) as HookPayload
    if (typeof payload !== 'object' || payload === null) throw new Error('the payload is not a JSON object')
  } catch (error) {
    io.stderr(`planlint hook: stdin is not a hook payload (${(error as Error).message}); nothing linted\n`)
    return 0
  }
  const given = payload.tool_input?.file_path ?? payload.tool_input?.path
  if (typeof given !== 'string' || given === '') {
    io.stderr('planlint hook: the payload names no `tool_input.file_path` or `tool_input.path`; nothing linted\n')
    return 0
  }
  const cwd = typeof payload.cwd === 'string' && payload.cwd !== '' ? payload.cwd : io.cwd
  const filePath = path.resolve(cwd, given)
  if (!/\.(md|markdown)$/i.test(filePath) || !inPlanningTree(filePath) || !fs.existsSync(filePath)) return 0
  try {
    // Loaded only now: the hook runs after every file an agent writes, and most are not plans.
    const [{lintFiles}, {toResults}] = await Promise.all([import('../lint.js'), import('../reporters/result.js')])
    const [result] = toResults(await lintFiles({paths: [filePath], cwd}))
    const response = result && hookResponse(path.relative(cwd, filePath) || filePath, result.messages)
    if (response) io.stdout(JSON.stringify(response) + '\n')
  } catch (error) {
    io.stderr(`planlint hook: could not lint ${given}: ${(error as Error).message.split('\n')[0]}\n`)
  }
  return 0
}
