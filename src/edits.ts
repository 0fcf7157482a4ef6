import type {PlanDocument} from './model/document.js'
import {opensFrontmatter, parseFrontmatter, type Frontmatter} from './model/frontmatter.js'
import type {Range} from './model/text.js'
import type {Edit, Finding} from './rule.js'
import {countUpTo} from './sorted.js'

/**
 * The fix model's safety rules, shared by every front end that applies or
 * offers edits (the remark messages the CLI and the language server read, the
 * ESLint plugin): an edit must not touch code, must leave the frontmatter
 * parsing as well as before (and not touch one that does not parse), and
 * must keep the file's line endings.
 */

const codeKinds = new Set(['fenced', 'indented', 'inline'])

const lineBreaks = (text: string) => text.match(/\r\n|\r|\n/g) ?? []

function overlaps(edit: Range, region: Range): boolean {
  // An insertion at a region's edge is outside it; a replacement must not share a character with it.
  if (edit[0] === edit[1]) return region[0] < edit[0] && edit[0] < region[1]
  return edit[0] < region[1] && edit[1] > region[0]
}

/** The code regions of a document by start, with the furthest end of each prefix (regions may overlap). */
interface CodeIndex {
  starts: number[]
  furthestEnds: number[]
}

const codeIndexes = new WeakMap<PlanDocument, CodeIndex>()

/** Whether `range` shares a character with a code region (an insertion: lies strictly inside one), in logarithmic time. */
function touchesCode(document: PlanDocument, range: Range): boolean {
  let index = codeIndexes.get(document)
  if (!index) {
    const code = document.opaque.filter((region) => codeKinds.has(region.kind)).map((region) => region.range).sort((a, b) => a[0] - b[0])
    let furthest = -1
    index = {starts: code.map((region) => region[0]), furthestEnds: code.map((region) => (furthest = Math.max(furthest, region[1])))}
    codeIndexes.set(document, index)
  }
  // `overlaps`: a region starting before the range ends and ending after it starts.
  const before = countUpTo(index.starts, (start) => start, range[1] - 1)
  return before > 0 && index.furthestEnds[before - 1] > range[0]
}

/** Replaces one range of `text`. */
export function applyEdit(text: string, edit: Edit): string {
  return text.slice(0, edit.range[0]) + edit.text + text.slice(edit.range[1])
}

/** Whether `after` parses its frontmatter at least as well as before the edit, when it `was` this (and still has one if it had). */
function frontmatterHolds(was: Frontmatter | undefined, after: string): boolean {
  const is = parseFrontmatter(after)
  if (was && !is) return false
  return (is?.errors.length ?? 0) <= (was?.errors.length ?? 0)
}

const endsWithLineBreak = (text: string, end: number) => text[end - 1] === '\n' || text[end - 1] === '\r'

/**
 * `frontmatterHolds` for one edit, reading only what the edit can change, so
 * that checking every edit of a file stays linear in its size. A block that
 * ends with a line break is decided by its own text: after it, an edit cannot
 * change it, and inside it the first closing fence of the edited block is the
 * whole text's too. Without a frontmatter, only an edit to the first line can
 * open one (unless the text opens one it never closes).
 */
function editKeepsFrontmatter(document: PlanDocument, edit: Edit): boolean {
  const {text, frontmatter} = document
  const [start, end] = edit.range
  if (frontmatter) {
    const blockEnd = frontmatter.range[1]
    if (endsWithLineBreak(text, blockEnd)) {
      if (start >= blockEnd) return true
      if (end <= blockEnd) {
        const block = text.slice(0, start) + edit.text + text.slice(end, blockEnd)
        const is = parseFrontmatter(block)
        if (is && endsWithLineBreak(block, is.range[1])) return is.errors.length <= frontmatter.errors.length
      }
    }
  } else if (start > (document.lines.lineStarts[1] ?? text.length) && !opensFrontmatter(text)) {
    return true
  }
  return frontmatterHolds(frontmatter, applyEdit(text, edit))
}

/** Whether `after` uses only line endings that `before` uses (or `\n` when `before` has none). */
function lineEndingsHold(before: string, after: string): boolean {
  const kinds = new Set(lineBreaks(before))
  if (kinds.size === 0) kinds.add('\n')
  return lineBreaks(after).every((lineBreak) => kinds.has(lineBreak))
}

/**
 * Whether `edit` turns one of the frontmatter's HTML comments into YAML
 * comments: text the YAML misread made what its author meant, an edit that
 * cannot make the YAML worse, errors or not.
 */
function makesYamlComment(document: PlanDocument, edit: Edit): boolean {
  if (!/^#[^\r\n]*(?:\r?\n[ \t]*#[^\r\n]*)*$/.test(edit.text)) return false
  // Found once per document: each comment's fix is checked here, and finding them reads the whole frontmatter.
  return document.frontmatterComments.some(([start, end]) => start === edit.range[0] && end === edit.range[1])
}

/** Why an edit may not be applied to the document, or `undefined` when it is safe. */
export function unsafeEditReason(document: PlanDocument, edit: Edit): string | undefined {
  return unsafeReason(document, edit, edit.text)
}

/**
 * `unsafeEditReason`, with the code fences and line breaks of the edit's text
 * read in `unread` only: the part of it not read before, after the open end
 * of the part that was (`openEnd`).
 */
function unsafeReason(document: PlanDocument, edit: Edit, unread: string): string | undefined {
  const {text} = document
  const [start, end] = edit.range
  if (start < 0 || end < start || end > text.length) return 'its range lies outside the file'
  if (touchesCode(document, edit.range)) {
    return 'it would change a code block'
  }
  if (/(^|\n)[ \t]*(```|~~~)/.test(unread)) return 'it would open or close a code block'
  const splitsLineBreak = (offset: number) => text[offset - 1] === '\r' && text[offset] === '\n'
  if (splitsLineBreak(start) || splitsLineBreak(end)) return 'it would split a CRLF line ending'
  const eol = document.lines.eol
  if (lineBreaks(unread).some((lineBreak) => lineBreak !== eol)) return "it would mix line endings with the file's"
  // Edits to YAML that does not parse could make it worse in ways the error count does not show.
  const {frontmatter} = document
  if (frontmatter && frontmatter.errors.length > 0 && overlaps(edit.range, frontmatter.range) && !makesYamlComment(document, edit)) {
    return 'the frontmatter has a YAML error to fix first'
  }
  if (!editKeepsFrontmatter(document, edit)) return 'it would break the YAML frontmatter'
  return undefined
}

/**
 * One edit for a cause repeated over a file (one message, several places): from the first edit's start to the last's
 * end, each replaced and the text between kept, so that one fix mends every place. Where the span may not be edited
 * (a code block lies between), the edits up to it: `--fix` passes again, and the next pass mends the places after.
 * Edits that overlap one before them are left out.
 */
export function joinedEdit(document: PlanDocument, edits: readonly Edit[]): Edit {
  const sorted = [...edits].sort((a, b) => a.range[0] - b.range[0])
  let joined = sorted[0]
  // The joined text is read once, piece by piece as it grows: reading it whole per edit was quadratic in the places.
  let readEnd: string | undefined
  for (const edit of sorted.slice(1)) {
    if (edit.range[0] < joined.range[1]) continue
    const added = document.text.slice(joined.range[1], edit.range[0]) + edit.text
    const longer: Edit = {range: [joined.range[0], edit.range[1]], text: joined.text + added}
    const unread = (readEnd ?? joined.text) + added
    if (unsafeReason(document, longer, unread) !== undefined) break
    joined = longer
    readEnd = openEnd(unread)
  }
  return joined
}

/**
 * What of a text found free of code fences and of foreign line breaks can
 * still make one with text after it: its last line break, with the rest of
 * its line while that may yet open a fence (`^` of the fence pattern reads
 * the text's start); otherwise `.`, which opens none and ends no line break.
 */
function openEnd(text: string): string {
  const lastBreak = Math.max(text.lastIndexOf('\n'), text.lastIndexOf('\r'))
  if (!/^[ \t]*[`~]{0,2}$/.test(text.slice(lastBreak + 1))) return '.'
  // A CRLF is kept whole, so that its `\n` is not read as a lone one.
  return text.slice(Math.max(0, text[lastBreak] === '\n' && text[lastBreak - 1] === '\r' ? lastBreak - 1 : lastBreak))
}

/**
 * A finding with its unsafe edits dropped: the message stays, without the fix
 * (or without the suggestions that are unsafe). Suggestions share the first
 * one's range, since a message has one `place` for all its `expected` texts.
 */
export function safeFinding(document: PlanDocument, finding: Finding): Finding {
  const {fix, suggestions} = finding
  const safe = (edit: Edit) => unsafeEditReason(document, edit) === undefined
  const first = suggestions?.[0]?.range
  const kept = suggestions?.filter((edit) => edit.range[0] === first?.[0] && edit.range[1] === first[1] && safe(edit))
  // Field by field, not by spreading: findings of every rule's shape take V8's slow path.
  const checked: Finding = {message: finding.message, range: finding.range}
  if (finding.severity !== undefined) checked.severity = finding.severity
  if (fix && safe(fix)) checked.fix = fix
  if (kept && kept.length > 0) checked.suggestions = kept
  return checked
}

/** Where a message is shown: at its fix (what a quick fix replaces), else its first suggestion, else its range. */
export function messageRange(finding: Finding): Range {
  return finding.fix?.range ?? finding.suggestions?.[0]?.range ?? finding.range
}

/** How a suggestion reads in an editor or ESLint: what it replaces with what. */
export function describeEdit(text: string, edit: Edit): string {
  const actual = text.slice(edit.range[0], edit.range[1])
  if (edit.text === '') return `Remove \`${actual.trim()}\``
  if (actual === '') return `Insert \`${edit.text.trim()}\``
  return `Replace \`${actual}\` with \`${edit.text}\``
}

/**
 * Applies the non-overlapping edits among `edits` in one pass, as ESLint
 * does: sorted by position, an edit that starts at or before the end of one
 * already taken waits for the next pass. Each edit was checked on its own;
 * if together they would break the frontmatter or the line endings, only the
 * first is applied.
 */
export function applyEdits(text: string, edits: readonly Edit[]): {text: string; applied: Edit[]} {
  const sorted = edits
    .filter((edit) => text.slice(edit.range[0], edit.range[1]) !== edit.text)
    .sort((a, b) => a.range[0] - b.range[0] || a.range[1] - b.range[1])
  const applied: Edit[] = []
  let lastEnd = -1
  for (const edit of sorted) {
    if (edit.range[0] <= lastEnd) continue
    applied.push(edit)
    lastEnd = edit.range[1]
  }
  const apply = (chosen: Edit[]) => {
    // Piece by piece: one edit at a time would copy the whole text per edit.
    const pieces: string[] = []
    let position = 0
    for (const edit of chosen) {
      pieces.push(text.slice(position, edit.range[0]), edit.text)
      position = edit.range[1]
    }
    pieces.push(text.slice(position))
    return pieces.join('')
  }
  const result = apply(applied)
  if (applied.length > 1 && !(frontmatterHolds(parseFrontmatter(text), result) && lineEndingsHold(text, result))) {
    return {text: apply(applied.slice(0, 1)), applied: applied.slice(0, 1)}
  }
  return {text: result, applied}
}
