import type {LintResult} from './result.js'

/** ESLint's JSON formatter shape. */
export function formatJson(results: LintResult[]): string {
  return JSON.stringify(results)
}
