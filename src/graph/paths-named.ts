import {normalizePath} from '../plan.js'

/** The most paths kept of one plan: a plan names a few dozen files at most. */
const maxPathsNamed = 500

/** The longest word read as a path. */
const maxPathLength = 300

/** Words that say a file is left alone when one of `negators` comes up to three words before them (`is not modified`, `do not touch`). */
const changeVerbs = new Set(['modify', 'modifies', 'modified', 'modifying', 'touch', 'touches', 'touched', 'touching', 'edit', 'edits', 'edited', 'editing', 'change', 'changes', 'changed', 'changing'])

const negators = new Set(['not', 'never', 'no', 'dont', 'cannot'])

/** A word that says it alone (`leave src/x.ts untouched`); `unchanged` is as often said of a behaviour or a test that must keep passing. */
const leftAlone = 'untouched'

/** Words that say the plan reads the file all the same (`reuse src/x.ts verbatim, do not modify it`), and `From` first in a sentence (`From src/x.ts (not modified):`, an interface the plan uses). */
const readCues = new Set(['read', 'reads', 'reuse', 'reuses', 'copy', 'copies', 'import', 'imports', 'call', 'calls', 'referenced'])

/** The longest word read as a cue (`referenced`, `shouldn’t`); a longer word with no slash says nothing (`longPlainWord`). */
const longestCue = 10

/** Whether `text` starts with `a`–`z` (a letter, without asking the Unicode tables). */
function startsWithAsciiLetter(text: string): boolean {
  const code = text.charCodeAt(0)
  return code >= 0x61 && code <= 0x7a
}

/**
 * Whether the word at `[start, end)` is one `pathsNamedIn` reads nothing of, known without copying it: longer than a
 * word it looks up, with no slash (so no path), and not trimmed shorter (printable ASCII at both ends: no white space).
 */
function longPlainWord(text: string, start: number, end: number): boolean {
  if (end - start <= longestCue || !printable(text.charCodeAt(start)) || !printable(text.charCodeAt(end - 1))) return false
  for (let at = start; at < end; at++) {
    const code = text.charCodeAt(at)
    if (code === 0x2f || code === 0x5c) return false
  }
  return true
}

const printable = (code: number) => code > 0x20 && code < 0x7f

/**
 * The paths a plan's body names as words (`fixtures/x.csv` in its action,
 * `cat src/x.ts` in a check), as `normalizePath` writes them: a word with a
 * folder whose last part has an extension, not a URL. A sentence that says a
 * file is left alone (`src/x.ts is not modified by this plan`, `do not touch
 * src/x.ts`) names none, unless it says the plan reads it all the same: its
 * paths are kept back until the sentence ends (a full stop, a `;`, a line's
 * end or a tag) and dropped when it says so. One pass over the body.
 */
export function pathsNamedIn(text: string, bodyStart: number): {pathsNamed?: string[]} {
  const paths = new Set<string>()
  const sentence = new Set<string>()
  let negated = false
  let read = false
  // Words of the sentence so far.
  let words = 0
  // Words since the last negator; past three, it says nothing of the verb.
  let sinceNegator = Number.POSITIVE_INFINITY
  const endSentence = () => {
    if (!negated || read) for (const path of sentence) if (paths.size < maxPathsNamed) paths.add(path)
    sentence.clear()
    negated = false
    read = false
    words = 0
    sinceNegator = Number.POSITIVE_INFINITY
  }
  // What ends a path written in prose, a code span or a command; found by the regex engine, which a test per character was ten times slower than.
  const wordDelimiter = /[ \t\n\r`'"()<>[\]{}*,;@|=]/g
  let start = bodyStart
  for (let at = bodyStart; at <= text.length && paths.size < maxPathsNamed; at++) {
    wordDelimiter.lastIndex = at
    at = wordDelimiter.test(text) ? wordDelimiter.lastIndex - 1 : text.length
    let end = at
    let fullStop = false
    // A sentence's full stop or a colon after the path is not part of it.
    while (end > start && (text[end - 1] === '.' || text[end - 1] === ':')) {
      end--
      if (text[end] === '.') fullStop = true
    }
    if (end > start && end - start <= maxPathLength && !longPlainWord(text, start, end)) {
      const written = text.slice(start, end)
      // Only a word with a slash can be a path: the others need only `normalizePath`'s trim.
      const word = written.includes('/') || written.includes('\\') ? normalizePath(written) : written.trim()
      const slash = word.lastIndexOf('/')
      if (slash > 0 && word.indexOf('.', slash) > slash + 1 && !word.startsWith('/') && !word.includes('://')) {
        if (sentence.size < maxPathsNamed) sentence.add(word)
      } else if (word.length <= longestCue) {
        const lower = word.toLowerCase()
        // A list marker (`-`, `1.`) is no word of the sentence.
        if (startsWithAsciiLetter(lower) || /\p{L}/u.test(lower)) words++
        // `don't` is two words here: the `'` ends a word.
        if (negators.has(lower) || (lower === 't' && text[start - 1] === "'" && text[start - 2] === 'n') || lower.endsWith('n’t')) sinceNegator = 0
        else if (readCues.has(lower) || (lower === 'from' && words === 1)) read = true
        else {
          sinceNegator++
          if (lower === leftAlone || (changeVerbs.has(lower) && sinceNegator <= 3)) negated = true
        }
      }
    }
    if (fullStop || at === text.length || '\n\r<>;'.includes(text[at])) endSentence()
    // A comma parts a negator from what follows it (`if it does not pass, edit src/x.ts`).
    else if (text[at] === ',') sinceNegator = Number.POSITIVE_INFINITY
    start = at + 1
  }
  return paths.size > 0 ? {pathsNamed: [...paths]} : {}
}
