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

/** Maps offsets to line/column and back; built once per text. */
export class LineIndex {
  readonly lineStarts: number[] = [0]

  constructor(readonly text: string) {
    for (let i = 0; i < text.length; i++) {
      if (text.charCodeAt(i) === 10) this.lineStarts.push(i + 1)
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

  /** The line ending the text mostly uses, so inserted lines match it (found once: every edit's check reads it). */
  get eol(): string {
    this.#eol ??= this.text.includes('\r\n') ? '\r\n' : '\n'
    return this.#eol
  }

  #eol: string | undefined
}
