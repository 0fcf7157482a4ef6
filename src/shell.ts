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
  /** The text after the pattern (file arguments, pipes, comparisons). */
  rest: string
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

/** A comparison with zero: `== 0`, `= 0` (spaced, not `VAR=0`), `-eq 0`, `equals 0`. */
export function comparesWithZero(segment: string): boolean {
  return /\s==?\s*0\b/.test(segment) || /-eq\s+0\b/.test(segment) || /\bequals\s+0\b/.test(segment)
}

const grepCall = /grep((?:\s+-{1,2}[A-Za-z][A-Za-z-]*)+)\s+(?:'([^']*)'|"([^"]*)"|([^\s'"|>&;$()[\]]+))/g

/** The `grep`s with options in a segment, with their patterns. */
export function grepCalls(segment: string): GrepCall[] {
  const calls: GrepCall[] = []
  for (const match of segment.matchAll(grepCall)) {
    const quoted = match[2] ?? match[3]
    const pattern = quoted ?? match[4]
    const patternStart = match.index + match[0].length - pattern.length - (quoted !== undefined ? 1 : 0)
    // A bare word must be a pattern, not a stray operator or number.
    if (quoted === undefined && (!/[A-Za-z0-9_]/.test(pattern) || /^[-=!<>0-9]+$/.test(pattern))) continue
    calls.push({options: match[1], pattern, quoted: quoted !== undefined, patternStart, rest: segment.slice(match.index + match[0].length)})
  }
  return calls
}

/** `-c`, `-Ec`, `--count`. */
export function countsMatches(options: string): boolean {
  return /(?:^|\s)-[A-Za-z]*c[A-Za-z]*(?=\s|$)/.test(options) || /--count\b/.test(options)
}

/** `-v`, `-cv`, `--invert-match`: counting non-matching lines turns `== 0` into a positive check. */
export function invertsMatch(options: string): boolean {
  return /(?:^|\s)-[A-Za-z]*v[A-Za-z]*(?=\s|$)/.test(options) || /--invert-match\b/.test(options)
}

/** A `!` at a command boundary that negates a grep, directly or at the head of a pipeline into grep. */
export function negatesGrep(segment: string): boolean {
  return (
    /(?:^|[;&|(]|\bthen\b|\bdo\b)\s*!\s*grep/.test(segment) ||
    (/(?:^|[;&|(]|\bthen\b|\bdo\b)\s*!\s*\w/.test(segment) && /\|\s*grep\b/.test(segment))
  )
}

/** A grep fed by a `sed -n` line range or an `awk` range: it checks a region, not the whole file. */
export function isRegionScoped(segment: string): boolean {
  const pipe = segment.lastIndexOf('|')
  if (pipe === -1) return false
  const before = segment.slice(0, pipe)
  return /\bsed\s+-n\b/.test(before) || /\bawk\b[^|]*\/[^/]*\/\s*,\s*\/[^/]*\//.test(before)
}

/**
 * The allow-list comments of a plan: `<!-- planner-discipline-allow: X -->`
 * (or `planner-region-allow`), each naming one literal or pattern.
 */
export function allowListed(text: string, kind: 'planner-discipline-allow' | 'planner-region-allow'): Set<string> {
  const allowed = new Set<string>()
  for (const match of text.matchAll(new RegExp(`<!--\\s*${kind}:\\s*(.+?)\\s*-->`, 'g'))) allowed.add(match[1])
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
