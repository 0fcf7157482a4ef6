/**
 * Reading the shell commands plans put in `<verify>`, `<automated>` and
 * `<acceptance_criteria>`: enough to find negative grep gates
 * (`grep -c 'X' f == 0`, `! grep -q 'X' f`). Every function keeps offsets, so
 * findings point at the pattern in the source.
 */

/** One `&&`/`||`-separated part of a command line, with its offset in the text it came from. */
export interface ShellSegment {
  text: string
  start: number
}

/** One `grep` with options (`grep -c 'X' f`), as found in a segment. */
export interface GrepCall {
  options: string
  pattern: string
  /** The pattern was quoted, so it is exactly what the author meant. */
  quoted: boolean
  /** The pattern's offset in the segment (without its quotes). */
  patternStart: number
  /** Where the pattern ends in the segment, before its closing quote (escapes make it longer than `pattern`). */
  patternEnd: number
  /** The text after the pattern (file arguments, pipes, comparisons). */
  rest: string
  /**
   * The grep's own command in the segment, which a pipeline's greps share
   * (see `commandStarts`), so that `test "$(grep -c 'A' f)" = 0; test
   * "$(grep -c 'B' f)" -ge 1` pairs each grep with its own test.
   */
  command: string
}

/**
 * The text as the executing agent reads it, same length as the source:
 * entity-escaped `&amp;` becomes `&` (planners write `&amp;&amp;` as the
 * chain operator) and a backslash line continuation becomes spaces, so a
 * command wrapped over lines is one line. Padding keeps every offset.
 */
export function shellView(text: string): string {
  return text
    .replace(/&amp;&amp;/g, (match) => '&&'.padEnd(match.length))
    .replace(/&amp;/g, (match) => '&'.padEnd(match.length))
    .replace(/\\\r?\n/g, (match) => ' '.repeat(match.length))
}

/**
 * Splits a text into lines and each line at `&&` and `||`, quote-aware: an
 * operator inside a quoted pattern (`grep -c 'a&&b'`) is part of the pattern.
 */
export function shellSegments(text: string, offset = 0): ShellSegment[] {
  const segments: ShellSegment[] = []
  const push = (start: number, end: number) => {
    const raw = text.slice(start, end)
    const lead = raw.length - raw.trimStart().length
    if (raw.trim() !== '') segments.push({text: raw.trim(), start: offset + start + lead})
  }
  let start = 0
  let quote: string | undefined
  for (let index = 0; index < text.length; index++) {
    const char = text[index]
    if (char === '\n') {
      push(start, index)
      start = index + 1
      quote = undefined
    } else if (quote) {
      if (quote === '"' && char === '\\') index++
      else if (char === quote) quote = undefined
    } else if (char === "'" || char === '"') {
      quote = char
    } else if ((char === '&' || char === '|') && text[index + 1] === char) {
      push(start, index)
      index++
      start = index + 1
    }
  }
  push(start, text.length)
  return segments
}

const grepHead = /grep(?:\s+-{1,2}[A-Za-z][A-Za-z-]*)+\s+(?:('[^']*'|"[^"]*")|[^\s'"|>&;]+)/g
const zeroComparison = /(?:==|-eq|=|\b(?:equals|returns))\s*0\b/g

/**
 * The negative grep commands in a text (`grep -c 'X' f == 0`, the comparison
 * later on the same line), as ranges. Each grep looks for the first
 * comparison after it through one list of the text's comparisons, since one
 * pattern (`grep … [^\n]*?== 0`) would rescan the line for every grep on it.
 */
export function negativeGrepCommands(text: string): Array<[number, number]> {
  const commands: Array<[number, number]> = []
  const comparisons = [...text.matchAll(zeroComparison)]
  let next = 0
  let lineEnd = -1
  for (const head of text.matchAll(grepHead)) {
    if (commands.length > 0 && head.index < commands[commands.length - 1][1]) continue
    const headEnd = head.index + head[0].length
    // An unquoted pattern may end in the comparison itself (`grep -c x=0`).
    const earliest = head[1] ? headEnd : headEnd - head[0].split(/\s/).pop()!.length + 1
    while (next < comparisons.length && comparisons[next].index < earliest) next++
    if (next === comparisons.length) break
    if (lineEnd < earliest) lineEnd = text.indexOf('\n', earliest) === -1 ? text.length : text.indexOf('\n', earliest)
    const comparison = comparisons[next]
    if (comparison.index > lineEnd) continue
    commands.push([head.index, comparison.index + comparison[0].length])
  }
  return commands
}

/** A comparison with zero: `== 0`, `= 0` (spaced, not `VAR=0`), `-eq 0`, `equals 0`, "returns 0". */
export function comparesWithZero(segment: string): boolean {
  return /\s==?\s*0\b/.test(segment) || /-eq\s+0\b/.test(segment) || /\b(?:equals|returns)\s+0\b/.test(segment)
}

const grepCall = /grep((?:\s+-{1,2}[A-Za-z][A-Za-z-]*)+)\s+(?:'([^']*)'|"((?:[^"\\]|\\.)*)"|([^\s'"|>&;$()[\]]+))/g

/** A double-quoted pattern as the shell passes it to grep: `\"`, `\\`, `\$` and `` \` `` lose their backslash. */
function unescapeDoubleQuoted(text: string): string {
  return text.replace(/\\(["\\$`])/g, '$1')
}

/** What may lead a grep in its command: `! grep`, `$(grep`, `` `grep ``, `"$(grep`. */
const commandLead = new Set([' ', '\t', '!', '"', '`', '$', '('])

/**
 * Where each grep's command starts in a segment. A grep piped from the one
 * before (`grep -rc 'X' d | grep -v ':0$' | wc -l`) is in its command; any
 * other starts a new one, after a `;` since the previous grep, else at its
 * own lead (`! grep`, `"$(grep`).
 */
function commandStarts(segment: string, matches: RegExpExecArray[]): number[] {
  const starts: number[] = []
  for (const [index, match] of matches.entries()) {
    const previousEnd = index === 0 ? 0 : matches[index - 1].index + matches[index - 1][0].length
    const between = segment.slice(previousEnd, match.index)
    const separator = between.lastIndexOf(';')
    if (index > 0 && separator === -1 && between.includes('|')) {
      starts.push(starts[index - 1])
    } else if (index === 0 || separator !== -1) {
      starts.push(index === 0 ? segment.lastIndexOf(';', match.index) + 1 : previousEnd + separator + 1)
    } else {
      let start = match.index
      while (start > previousEnd && commandLead.has(segment[start - 1])) start--
      starts.push(start)
    }
  }
  return starts
}

/** The `grep`s with options in a segment, with their patterns. */
export function grepCalls(segment: string): GrepCall[] {
  const matches = [...segment.matchAll(grepCall)]
  const starts = commandStarts(segment, matches)
  // A command ends where the next one starts.
  const ends = starts.map(() => segment.length)
  for (let index = starts.length - 2; index >= 0; index--) ends[index] = starts[index + 1] === starts[index] ? ends[index + 1] : starts[index + 1]
  const calls: GrepCall[] = []
  for (const [index, match] of matches.entries()) {
    const quoted = match[2] ?? match[3]
    const source = quoted ?? match[4]
    // A bare word must be a pattern, not a stray operator or number.
    if (quoted === undefined && (!/[A-Za-z0-9_]/.test(source) || /^[-=!<>0-9]+$/.test(source))) continue
    const matchEnd = match.index + match[0].length
    const patternEnd = matchEnd - (quoted !== undefined ? 1 : 0)
    calls.push({
      options: match[1],
      pattern: match[3] === undefined ? source : unescapeDoubleQuoted(source),
      quoted: quoted !== undefined,
      patternStart: patternEnd - source.length,
      patternEnd,
      rest: segment.slice(matchEnd),
      command: segment.slice(starts[index], ends[index])
    })
  }
  return calls
}

/** Whether the options hold a short-option cluster (`-c`, `-Ec`) with `letter`, or the long option `long`. */
function hasOption(options: string, letter: string, long: RegExp): boolean {
  return options.split(/\s+/).some((option) => /^-[A-Za-z]+$/.test(option) && option.includes(letter)) || long.test(options)
}

/** `-c`, `-Ec`, `--count`. */
export function countsMatches(options: string): boolean {
  return hasOption(options, 'c', /--count\b/)
}

/** `-v`, `-cv`, `--invert-match`: counting non-matching lines turns `== 0` into a positive check. */
export function invertsMatch(options: string): boolean {
  return hasOption(options, 'v', /--invert-match\b/)
}

/** A `!` at a command boundary that negates a grep, directly or at the head of a pipeline into grep. */
export function negatesGrep(segment: string): boolean {
  return (
    /(?:^|[;&|(]|\bthen|\bdo)\s*!\s*grep/.test(segment) ||
    (/(?:^|[;&|(]|\bthen|\bdo)\s*!\s*\w/.test(segment) && /\|\s*grep\b/.test(segment))
  )
}

/** A grep fed by a `sed -n` line range or an `awk` range: it checks a region, not the whole file. */
export function isRegionScoped(segment: string): boolean {
  const pipe = segment.lastIndexOf('|')
  if (pipe === -1) return false
  const before = segment.slice(0, pipe)
  return /\bsed\s+-n\b/.test(before) || before.split('|').some(awkRange)
}

/**
 * Whether a pipeline stage runs `awk` with a `/start/,/end/` range. Read from
 * the slashes (`/x/ , /y/` is a slash-separated part that is only a comma),
 * not with one pattern, which would backtrack over long stages.
 */
function awkRange(stage: string): boolean {
  const awk = /\bawk\b/.exec(stage)
  if (!awk) return false
  const parts = stage.slice(awk.index + 3).split('/')
  return parts.some((part, index) => index >= 2 && index + 2 < parts.length && part.trim() === ',')
}

/**
 * The allow-list comments of a plan: `<!-- planner-discipline-allow: X -->`
 * (or `planner-region-allow`, `plan-criteria-allow`), each naming one literal,
 * pattern or trap.
 */
export function allowListed(text: string, kind: 'planner-discipline-allow' | 'planner-region-allow' | 'plan-criteria-allow'): Set<string> {
  const allowed = new Set<string>()
  // Scanned with indexOf: a pattern would backtrack over a comment that is never closed.
  let closing = -1
  for (let opening = text.indexOf('<!--'); opening !== -1; ) {
    if (closing < opening + 4) closing = text.indexOf('-->', opening + 4)
    if (closing === -1) break
    const body = text.slice(opening + 4, closing).trimStart()
    const value = body.startsWith(`${kind}:`) ? body.slice(kind.length + 1).trim() : ''
    const oneLine = !/[\n\r\u2028\u2029]/.test(value)
    if (value !== '' && oneLine) allowed.add(value)
    opening = text.indexOf('<!--', value !== '' && oneLine ? closing + 3 : opening + 4)
  }
  return allowed
}

/**
 * Whether `text` holds what a grep pattern matches, without running it as a
 * regular expression (no catastrophic backtracking): literals, `.`/`.*`/`\s*`
 * style gaps and `^`/`$` anchors are understood; anything else (classes,
 * alternation, groups) falls back to finding the pattern as written, which
 * can only miss a match, never invent one.
 */
export function patternOccursIn(pattern: string, text: string): boolean {
  const haystack = text.slice(0, 8000)
  const bare = pattern.replace(/^\^/, '').replace(/\$$/, '')
  if (!bare) return false
  if (!/[.*+?^${}()|[\]\\]/.test(bare)) return haystack.includes(bare)
  const gap = '\u0000'
  const withGaps = bare
    .replace(/\\[sSwWdD][*+?]?/g, gap)
    .replace(/\.[*+?]/g, gap)
    .replace(/\./g, gap)
    .replace(/\\(.)/g, '$1')
  if (/[*+?^${}()|[\]]/.test(withGaps.split(gap).join(''))) return haystack.includes(bare)
  const fragments = withGaps.split(gap).filter(Boolean)
  if (fragments.length === 0) return false
  let position = 0
  for (const fragment of fragments) {
    const found = haystack.indexOf(fragment, position)
    if (found === -1) return false
    position = found + fragment.length
  }
  return true
}
