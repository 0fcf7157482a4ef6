import fs from 'node:fs'
import {createRequire} from 'node:module'
import path from 'node:path'

/** A rule's documentation, as code scanning shows it: what the rule checks, and its page up to the examples. */
export interface RuleDocs {
  /** The page's first paragraph: what the rule checks. */
  summary: string
  /** The page from its first paragraph up to `## Examples` (or its end), Markdown. */
  page: string
}

/**
 * Reads a rule's `docs/rules/<id>.md`, which the package ships (`files` in
 * package.json), found through the package's own name; `undefined` when
 * the page is not there.
 */
export function ruleDocs(ruleId: string): RuleDocs | undefined {
  let text: string
  try {
    const root = path.dirname(createRequire(import.meta.url).resolve('planlint/package.json'))
    text = fs.readFileSync(path.join(root, 'docs/rules', `${ruleId}.md`), 'utf8')
  } catch {
    return undefined
  }
  const lines = text.replace(/\r\n?/g, '\n').split('\n')
  const start = lines.findIndex((line, index) => index > 0 && line.trim() !== '')
  const examples = lines.findIndex((line) => line.startsWith('## Examples'))
  const page = lines.slice(start, examples === -1 ? undefined : examples).join('\n').trim()
  const paragraphEnd = page.indexOf('\n\n')
  const summary = (paragraphEnd === -1 ? page : page.slice(0, paragraphEnd)).split('\n').map((line) => line.trim()).filter(Boolean).join(' ')
  return {summary, page}
}
