import path from 'node:path'
import picomatch from 'picomatch'
import {sliceOf} from '../src/model/document.js'
import type {Heading} from '../src/model/scan.js'
import {checkpointMarkerTypes, completionMarkers, markerOf} from '../src/model/markers.js'
import {codeList, lineOf} from '../src/plan.js'
import {defineRule} from '../src/rule.js'

interface Options {
  /** Extra markers (heading text after `## `) on top of the built-in table. */
  markers: string[]
  /** Globs of files that must carry exactly one marker: zero is then an error. */
  required: string[]
  /** Whether a plan may carry a marker (by default it is an agent's return leaked into the plan). */
  allowInPlans: boolean
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * A heading that was meant as a marker: the marker in the wrong case, at the
 * wrong level or with `-ED`. Returns the marker and the source to replace.
 */
function nearMissOf(source: string, markers: readonly string[]): {marker: string; length: number} | undefined {
  for (const marker of markers) {
    if (marker.endsWith(':')) continue
    const pattern = new RegExp(`^#{1,6}[ \\t]+${escapeRegExp(marker).replace(/ /g, '\\s+')}(?:ED|D)?(?![A-Za-z0-9_-])`, 'i')
    const match = pattern.exec(source)
    if (match) return {marker, length: match[0].length}
  }
  return undefined
}

/**
 * Whether a heading of the text may start with a marker, or be a near miss
 * of one: the marker's text, in any case and spacing, with no letter before
 * it on its line (`## `, `> ## `, `**`, a setext heading's first line). Only
 * then are the headings read, which costs a CommonMark scan of the file.
 * Linear, one pass: a marker can only stand where its first letter is the
 * first letter of a line, so each line is read up to its first letter and
 * the markers whose first letter that is are tried there, what stands before
 * that letter in the marker (`⚠ `) read back from it. The text is lower-cased
 * once and read in place: a run of spaces and tabs counts as one space, and
 * `\r\n` or a lone `\r` ends a line.
 */
function mayHoldMarker(text: string, markers: readonly string[]): boolean {
  const lowered = text.toLowerCase()
  const byFirstLetter = new Map<string, Array<{before: string[]; words: string[]}>>()
  // Re-spaced once, for all the markers searched for alone.
  let folded: string | undefined
  for (const marker of markers) {
    const needle = marker.toLowerCase()
    const letterAt = needle.search(/\p{L}/u)
    // A marker with other white space, spaces that a run in the text never reads as (two in a row, one at an end), or no letter: searched for alone.
    if (/[^\S ]/.test(needle) || needle.split(' ').includes('') || letterAt === -1) {
      folded ??= lowered.replace(/\r\n?/g, '\n').replace(/[^\S\n]+/g, ' ')
      if (holdsFolded(folded, needle)) return true
      continue
    }
    const anchored = {before: needle.slice(0, letterAt).split(' '), words: needle.slice(letterAt).split(' ')}
    const known = byFirstLetter.get(needle[letterAt])
    if (known) known.push(anchored)
    else byFirstLetter.set(needle[letterAt], [anchored])
  }
  if (byFirstLetter.size === 0) return false
  const letter = /\p{L}/gu
  const lineBreak = /[\r\n]/g
  for (let from = 0; from < lowered.length; ) {
    letter.lastIndex = from
    const first = letter.exec(lowered)
    if (!first) return false
    if (byFirstLetter.get(lowered[first.index])?.some(({before, words}) => wordsFollow(lowered, words, first.index) && wordsPrecede(lowered, before, first.index))) return true
    lineBreak.lastIndex = first.index
    if (!lineBreak.test(lowered)) return false
    from = lineBreak.lastIndex
  }
  return false
}

/** White space that reads as one space: not a line break (`\r` ends a line as `\n` does). */
const spaceInLine = /[^\S\r\n]/

/** Whether `words` stand at `at` one after the other, each pair parted by a run of `spaceInLine`. */
function wordsFollow(text: string, words: readonly string[], at: number): boolean {
  if (!text.startsWith(words[0], at)) return false
  let end = at + words[0].length
  for (let index = 1; index < words.length; index++) {
    if (end >= text.length || !spaceInLine.test(text[end])) return false
    while (end < text.length && spaceInLine.test(text[end])) end++
    if (!text.startsWith(words[index], end)) return false
    end += words[index].length
  }
  return true
}

/** Whether `words` stand one after the other, each pair parted by a run of `spaceInLine`, the last ending at `at` (`wordsFollow` read back). */
function wordsPrecede(text: string, words: readonly string[], at: number): boolean {
  let start = at
  for (let index = words.length - 1; index >= 0; index--) {
    if (index < words.length - 1) {
      if (start === 0 || !spaceInLine.test(text[start - 1])) return false
      while (start > 0 && spaceInLine.test(text[start - 1])) start--
    }
    const word = words[index]
    if (start < word.length || !text.startsWith(word, start - word.length)) return false
    start -= word.length
  }
  return true
}

/** `mayHoldMarker` of one marker, on the lower-cased text re-spaced (`folded`): line breaks as `\n`, each run of other white space one space. */
function holdsFolded(folded: string, needle: string): boolean {
  let at = folded.indexOf(needle)
  while (at !== -1) {
    const lineStart = folded.lastIndexOf('\n', at) + 1
    if (!/\p{L}/u.test(folded.slice(lineStart, at))) return true
    // Any later match on this line has the same letter before it.
    const lineEnd = folded.indexOf('\n', at)
    at = lineEnd === -1 ? -1 : folded.indexOf(needle, lineEnd)
  }
  return false
}

/** Whether a marker reports the work done or not done (`RESEARCH COMPLETE`, `RESEARCH BLOCKED`); checkpoints and other states are neither. */
function outcomeOf(marker: string): 'success' | 'failure' | undefined {
  if (/ (?:COMPLETE|PASSED|VERIFIED|CREATED|SECURED)$/.test(marker)) return 'success'
  if (/ (?:FAILED|BLOCKED|INCONCLUSIVE)$/.test(marker)) return 'failure'
  return undefined
}

/**
 * Agent output ends with exactly one `##` completion marker, and nothing
 * at its level or higher follows it: orchestrators route on the marker.
 */
export default defineRule<Options>({
  id: 'completion-marker',
  description: 'Agent output has exactly one completion marker, as its last heading; a file at rest no misspelt or contradicting one.',
  severity: 'warning',
  // Any Markdown file: one that the `required` option names is agent output even without a marker.
  kinds: ['agent-output', 'summary', 'plan', 'other'],
  fixable: 'fix',
  defaultOptions: {markers: [], required: [], allowInPlans: false},
  check({document, options, report}) {
    const markers = [...completionMarkers, ...options.markers]
    const required =
      document.path !== undefined &&
      options.required.length > 0 &&
      picomatch(options.required, {dot: true})(document.path.split(path.sep).join('/'))
    if (document.kind === 'other' && !required) return
    if (!required && !mayHoldMarker(document.text, markers)) return
    const found = document.headings.filter((heading) => heading.depth === 2 && markerOf(heading.text, markers))
    const severity = required ? ('error' as const) : undefined
    if (found.length === 0) {
      const last = document.headings.at(-1)
      const nearMiss = last && nearMissOf(sliceOf(document, last.range), markers)
      if (last && nearMiss && !(document.kind === 'plan' && !options.allowInPlans)) {
        const range: [number, number] = [last.range[0], last.range[0] + nearMiss.length]
        report({
          message: `\`${sliceOf(document, range)}\` is not a completion marker; write \`## ${nearMiss.marker}\``,
          range,
          fix: {range, text: `## ${nearMiss.marker}`},
          severity
        })
      } else if (required) {
        report({
          message: 'This agent output carries no completion marker; end it with one (`## PLAN COMPLETE`, `## RESEARCH COMPLETE`, ...)',
          range: [0, 0],
          severity
        })
      }
      return
    }
    if (document.kind === 'plan' && !options.allowInPlans) {
      report({
        message: `A plan carries the completion marker \`## ${found[0].text.trim()}\`: an agent's return leaked into the plan; remove it`,
        range: found[0].range
      })
      return
    }
    // The closing marker of a file at rest that repeats its status banner says the same thing twice.
    // A file at rest keeps markers as banners, quotes and history; only a success and a failure of the same work mislead its reader.
    const first = markerOf(found[0].text, markers)!
    const contradicts = (extra: Heading) => {
      const marker = markerOf(extra.text, markers)!
      const [subject, outcome] = [marker.split(' ', 1)[0], outcomeOf(marker)]
      return subject === first.split(' ', 1)[0] && outcome !== undefined && outcomeOf(first) !== undefined && outcome !== outcomeOf(first)
    }
    for (const extra of found.slice(1)) {
      if (required) {
        report({
          message: `A second completion marker (the first is on line ${lineOf(document, found[0].range[0])}); an agent's output carries exactly one`,
          range: extra.range,
          severity
        })
      } else if (contradicts(extra)) {
        report({
          message: `A second completion marker that gives the same work another outcome (the first, on line ${lineOf(document, found[0].range[0])}, is \`${first}\`); say which one holds`,
          range: extra.range
        })
      }
    }
    for (const marker of found) {
      if (!markerOf(marker.text, markers)!.endsWith(':')) continue
      const type = marker.text.trim().slice(marker.text.indexOf(':') + 1).trim().toUpperCase()
      if (!checkpointMarkerTypes.some((known) => type.startsWith(known))) {
        report({
          message: `\`## ${marker.text.trim()}\` names no checkpoint type; use one of ${codeList(checkpointMarkerTypes.map((known) => `CHECKPOINT: ${known}`))}`,
          range: marker.range,
          severity
        })
      }
    }
    // The contract's "last heading" is about an agent's return, which only the files `required` names are.
    if (!required) return
    const last = found[found.length - 1]
    const after = document.headings.find((heading) => heading.range[0] > last.range[0] && heading.depth <= 2)
    if (after) {
      report({
        message: `The heading \`${after.text.trim()}\` follows the completion marker on line ${lineOf(document, last.range[0])}; the marker must be the last heading`,
        range: after.range,
        severity
      })
    }
  }
})
