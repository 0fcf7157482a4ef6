import {normalizePath} from '../plan.js'

/** The most paths kept of one plan: a plan names a few dozen files at most. */
const maxPathsNamed = 500

/** The longest word read as a path. */
const maxPathLength = 300

/** What ends a path written in prose, a code span or a command. */
const wordDelimiters = new Set([' ', '\t', '\n', '\r', '`', "'", '"', '(', ')', '<', '>', '[', ']', '{', '}', '*', ',', ';', '@', '|', '='])

/**
 * The paths a plan's body names as words (`fixtures/x.csv` in its action,
 * `cat src/x.ts` in a check), as `normalizePath` writes them: a word with a
 * folder whose last part has an extension, not a URL. One pass over the body.
 */
export function pathsNamedIn(text: string, bodyStart: number): {pathsNamed?: string[]} {
  const paths = new Set<string>()
  let start = bodyStart
  for (let at = bodyStart; at <= text.length && paths.size < maxPathsNamed; at++) {
    if (at < text.length && !wordDelimiters.has(text[at])) continue
    let end = at
    // A sentence's full stop or a colon after the path is not part of it.
    while (end > start && (text[end - 1] === '.' || text[end - 1] === ':')) end--
    if (end - start <= maxPathLength) {
      const word = normalizePath(text.slice(start, end))
      const slash = word.lastIndexOf('/')
      if (slash > 0 && word.indexOf('.', slash) > slash + 1 && !word.startsWith('/') && !word.includes('://')) paths.add(word)
    }
    start = at + 1
  }
  return paths.size > 0 ? {pathsNamed: [...paths]} : {}
}
