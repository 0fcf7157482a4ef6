/** A point in the source: 1-based line and column, 0-based offset (unist style). */
export interface Point {
  line: number
  column: number
  offset: number
}

/** Half-open character range `[start, end)` on the source text. */
export type Range = [number, number]

/**
 * The lines of `text` from `from` on, as `[start, end)` ranges without their
 * line break. A line ends at `\n`, `\r\n` or a lone `\r`, as in CommonMark.
 */
export function* lineRanges(text: string, from = 0): Generator<Range> {
  let start = from
  while (start < text.length) {
    let end = start
    while (end < text.length && text.charCodeAt(end) !== 10 && text.charCodeAt(end) !== 13) end++
    yield [start, end]
    start = end + (text.startsWith('\r\n', end) ? 2 : 1)
  }
}

/**
 * Whether text read as UTF-8 was UTF-16: its byte order mark (`FF FE` or
 * `FE FF`, two replacement characters once decoded) or, without one, a NUL
 * in every other character of its start, as ASCII text in UTF-16 has.
 */
export function utf16Of(text: string): 'UTF-16LE' | 'UTF-16BE' | 'UTF-16' | undefined {
  const start = text.slice(0, 512)
  let even = 0
  let odd = 0
  for (let index = 0; index < start.length; index++) {
    if (start.charCodeAt(index) === 0) {
      if (index % 2 === 0) even++
      else odd++
    }
  }
  const bom = start.startsWith('\uFFFD\uFFFD')
  const half = (start.length - (bom ? 2 : 0)) / 2
  // After the mark's two characters, ASCII's NULs fall on the same parity as without one.
  const nulls = Math.max(even, odd)
  if (half < 4 || nulls < half * 0.6) return bom && nulls > 0 ? 'UTF-16' : undefined
  return odd > even ? 'UTF-16LE' : 'UTF-16BE'
}

/** Maps offsets to line/column and back; built once per text. */
export class LineIndex {
  readonly lineStarts: number[] = [0]

  constructor(readonly text: string) {
    // `\n`, `\r\n` and a lone `\r` end a line, as in CommonMark (and in remark's and LSP's positions).
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i)
      if (code === 10 || (code === 13 && text.charCodeAt(i + 1) !== 10)) this.lineStarts.push(i + 1)
    }
  }

  point(offset: number): Point {
    const clamped = Math.max(0, Math.min(offset, this.text.length))
    let low = 0
    let high = this.lineStarts.length - 1
    while (low < high) {
      const middle = (low + high + 1) >> 1
      if (this.lineStarts[middle] <= clamped) low = middle
      else high = middle - 1
    }
    return {line: low + 1, column: clamped - this.lineStarts[low] + 1, offset: clamped}
  }

  offset(line: number, column: number): number {
    const start = this.lineStarts[Math.max(0, Math.min(line - 1, this.lineStarts.length - 1))]
    return Math.min(start + column - 1, this.text.length)
  }

  /** The line ending the text uses, so inserted lines match it: CRLF if any, else a lone CR in a CR-only text, else LF (found once: every edit's check reads it). */
  get eol(): string {
    this.#eol ??= this.text.includes('\r\n') ? '\r\n' : this.text.includes('\r') && !this.text.includes('\n') ? '\r' : '\n'
    return this.#eol
  }

  #eol: string | undefined
}

/** The index of the first of ascending `values` that is at least `value` (`values.length` when none is). */
export function firstAtLeast(values: readonly number[], value: number): number {
  let low = 0
  let high = values.length
  while (low < high) {
    const middle = (low + high) >> 1
    if (values[middle] < value) low = middle + 1
    else high = middle
  }
  return low
}

/**
 * Ranges in order and apart (each ends at or before the next starts), found by
 * offset with a binary search: a look-up per command or sentence costs log n,
 * not a scan of every range.
 */
export class SortedRanges {
  private readonly ends: number[]

  constructor(readonly ranges: readonly Range[]) {
    this.ends = ranges.map(([, end]) => end)
  }

  /** The union of `ranges` (in any order, overlapping or not), empty ones left out. */
  static union(ranges: readonly Range[]): SortedRanges {
    const merged: Range[] = []
    for (const [start, end] of [...ranges].sort((a, b) => a[0] - b[0])) {
      if (start >= end) continue
      const last = merged.at(-1)
      if (last && start <= last[1]) last[1] = Math.max(last[1], end)
      else merged.push([start, end])
    }
    return new SortedRanges(merged)
  }

  /** The range that holds `offset`, if one does. */
  holding(offset: number): Range | undefined {
    const range = this.ranges[firstAtLeast(this.ends, offset + 1)]
    return range !== undefined && range[0] <= offset ? range : undefined
  }

  /** Whether a range shares a character with `[start, end)`. */
  overlaps(start: number, end: number): boolean {
    const range = this.ranges[firstAtLeast(this.ends, start + 1)]
    return range !== undefined && range[0] < end
  }

  /** The ranges that share a character with `[start, end)`, in order. */
  *within(start: number, end: number): Generator<Range> {
    for (let index = firstAtLeast(this.ends, start + 1); index < this.ranges.length && this.ranges[index][0] < end; index++) yield this.ranges[index]
  }
}
