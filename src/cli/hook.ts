import fs from 'node:fs'
import path from 'node:path'
import type {LintMessage, LintResult} from '../reporters/result.js'
import type {CliIo} from './main.js'

export const hookHelp = `Usage: planlint hook < payload.json

Lints the plans a coding agent just wrote, named in its post-write hook
payload on stdin (Claude Code, Codex and Gemini CLI: \`tool_input.file_path\`,
\`tool_input.path\` or an \`apply_patch\`; Cursor: \`file_path\`), and answers in
the hook's JSON on stdout: \`{"decision": "block", ...}\` on errors,
\`hookSpecificOutput.additionalContext\` on warnings, nothing when clean.
Always exits 0: a bad payload or an internal failure is one line on stderr
(docs/agent-hooks.md).

Options:
  -h, --help   show this help`

/**
 * The parts of a coding agent's post-write hook payload that planlint reads.
 * Claude Code, Gemini CLI (`AfterTool`) and Codex (`PostToolUse`) send
 * `cwd` and `tool_input`; Codex's `apply_patch` names its files inside the
 * patch in `tool_input.command`; Cursor's `afterFileEdit` sends `file_path`
 * and `workspace_roots` at the top level.
 */
interface HookPayload {
  cwd?: unknown
  tool_name?: unknown
  tool_input?: {file_path?: unknown; path?: unknown; command?: unknown}
  file_path?: unknown
  workspace_roots?: unknown
}

/** Claude Code's PostToolUse hook output ("PostToolUse Decision Control" in its hooks reference), which Codex and Gemini CLI read too. */
type HookResponse =
  | {decision: 'block'; reason: string}
  | {hookSpecificOutput: {hookEventName: 'PostToolUse'; additionalContext: string}}

const describe = (message: LintMessage) => `  ${message.line}:${message.column}  ${message.message}${message.ruleId ? `  (${message.ruleId})` : ''}`

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined)

/** Whether a file lies in a planning tree (has a `.planning` ancestor). */
function inPlanningTree(filePath: string): boolean {
  return path.dirname(filePath).split(path.sep).includes('.planning')
}

/** The files a Codex `apply_patch` wrote: its `*** Add File:`, `*** Update File:` and `*** Move to:` lines. */
function patchedFiles(patch: string): string[] {
  const headers = ['*** Add File: ', '*** Update File: ', '*** Move to: ']
  return patch
    .split('\n')
    .flatMap((line) => headers.filter((header) => line.startsWith(header)).map((header) => line.slice(header.length).trim()))
    .filter((file) => file !== '')
}

/** The files the agent says it wrote, as given (relative or absolute). */
function writtenFiles(payload: HookPayload): string[] {
  const input = payload.tool_input ?? {}
  const named = text(input.file_path) ?? text(input.path) ?? text(payload.file_path)
  if (named) return [named]
  const command = text(input.command)
  return payload.tool_name === 'apply_patch' && command ? patchedFiles(command) : []
}

/** The messages of the linted files, each under its file's heading line. */
function listed(results: Array<{name: string; messages: LintMessage[]}>, heading: (count: number, name: string) => string): string[] {
  return results.filter((result) => result.messages.length > 0).flatMap((result) => [heading(result.messages.length, result.name), ...result.messages.map(describe)])
}

/** The response for the files' messages: block on errors, context for warnings, nothing when clean. */
function hookResponse(results: Array<{name: string; result: LintResult}>, docsUrl: (ruleId: string) => string | undefined): HookResponse | undefined {
  const bySeverity = (severity: 1 | 2) => results.map(({name, result}) => ({name, messages: result.messages.filter((message) => message.severity === severity)}))
  const errors = bySeverity(2)
  const warnings = bySeverity(1)
  const ruleIds = [...new Set(results.flatMap(({result}) => result.messages.map((message) => message.ruleId ?? '')))]
  const links = ruleIds.flatMap((id) => {
    const url = id && docsUrl(id)
    return url ? [`  ${id}: ${url}`] : []
  })
  const docs = links.length > 0 ? ['Rule docs:', ...links] : []
  const errorLines = listed(errors, (count, name) => `planlint found ${plural(count, 'error')} in ${name} (fix before going on):`)
  const warningLines = listed(warnings, (count, name) => `planlint found ${plural(count, 'warning')} in ${name}:`)
  if (errorLines.length > 0) {
    const andWarnings = warningLines.length > 0 ? ['and ' + warningLines[0].replace(/^planlint found /, ''), ...warningLines.slice(1)] : []
    return {decision: 'block', reason: [...errorLines, ...andWarnings, ...docs].join('\n')}
  }
  if (warningLines.length > 0) {
    return {hookSpecificOutput: {hookEventName: 'PostToolUse', additionalContext: [...warningLines, ...docs].join('\n')}}
  }
  return undefined
}

/**
 * `planlint hook`: lints the plans a coding agent just wrote (named in the
 * hook payload on stdin) and answers in the hook's JSON. It never fails the
 * agent's tool call and never blocks on its own failure: a bad payload, a
 * configuration that cannot load or any other internal failure is one line on
 * stderr and exit 0. Files that a `.remarkignore` ignores are skipped quietly:
 * the agent named them only because it wrote them.
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
  const given = writtenFiles(payload)
  if (given.length === 0) {
    io.stderr('planlint hook: the payload names no `tool_input.file_path`, `tool_input.path`, `file_path` or `apply_patch` file; nothing linted\n')
    return 0
  }
  const roots = Array.isArray(payload.workspace_roots) ? payload.workspace_roots : []
  const cwd = text(payload.cwd) ?? text(roots[0]) ?? io.cwd
  const plans = given.map((file) => path.resolve(cwd, file)).filter((file) => /\.(md|markdown)$/i.test(file) && inPlanningTree(file) && fs.existsSync(file))
  if (plans.length === 0) return 0
  try {
    // Loaded only now: the hook runs after every file an agent writes, and most are not plans.
    const [{lintEach, ProcessingFailure}, {resultOf, ruleDocsUrl}] = await Promise.all([import('../lint.js'), import('../reporters/result.js')])
    const results: Array<{name: string; result: LintResult}> = []
    try {
      await lintEach({paths: plans, cwd, silentlyIgnore: true}, (file) => {
        const result = resultOf(file)
        results.push({name: path.relative(cwd, result.filePath) || result.filePath, result})
      })
    } catch (error) {
      if (!(error instanceof ProcessingFailure)) throw error
      io.stderr(`planlint hook: ${error.message}; nothing reported\n`)
      return 0
    }
    const response = hookResponse(results, ruleDocsUrl)
    if (response) io.stdout(JSON.stringify(response) + '\n')
  } catch (error) {
    io.stderr(`planlint hook: could not lint ${given.join(', ')}: ${(error as Error).message.split('\n')[0]}\n`)
  }
  return 0
}
