import {portableRelativePath, severityName, type LintResult} from './result.js'

/** Workflow-command data escaping (as `@actions/core` does). */
const escapeData = (text: string) => text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')

/** Workflow-command property escaping: data escaping plus `:` and `,`, which separate properties. */
const escapeProperty = (text: string) => escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C')

/**
 * GitHub Actions workflow commands, one annotation per message:
 * `::error file=…,line=…,col=…,endLine=…,endColumn=…,title=…::message`.
 * Paths are relative to `cwd` (the workspace in a workflow), with `/`.
 */
export function formatGithub(results: LintResult[], options: {cwd?: string} = {}): string {
  const cwd = options.cwd ?? process.cwd()
  const lines: string[] = []
  for (const result of results) {
    const file = portableRelativePath(result.filePath, cwd)
    for (const message of result.messages) {
      const properties: Array<[string, string | number | undefined]> = [
        ['file', file],
        ['line', message.line],
        ['col', message.column],
        ['endLine', message.endLine],
        ['endColumn', message.endColumn],
        ['title', message.ruleId ? `planlint/${message.ruleId}` : 'planlint']
      ]
      const list = properties
        .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
        .map(([name, value]) => `${name}=${escapeProperty(String(value))}`)
        .join(',')
      lines.push(`::${severityName(message)} ${list}::${escapeData(message.message)}`)
    }
  }
  return lines.length > 0 ? lines.join('\n') + '\n' : ''
}
