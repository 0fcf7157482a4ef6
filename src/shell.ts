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
  /** Where `command` starts in the segment. */
  commandStart: number
  /** Where the `grep` word itself starts in the segment. */
  start: number
  /** The text after the pattern to the end of its command: where the count's comparison is. */
  tail: string
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

/**
 * A comparison with zero after a count: `== 0`, `= 0` (spaced, not `VAR=0`),
 * `-eq 0`, `→ 0`, or in words: "equals 0", "must equal 0", "should be 0",
 * "returns 0", "outputs 0", "prints 0".
 */
function comparesWithZero(text: string): boolean {
  return [/\s(?:==?|->|→)\s*0(?!\.?\d)/g, /-eq\s+0\b/g, /\b(?:equals?|returns?|outputs?|prints?|be)\s+0(?!\.?\d)/gi].some((pattern) => unconditionally(text, pattern))
}

/**
 * Whether a condition leads to the end of `before` ("If it returns 0, stop",
 * "if NO matches, delete it"): what follows is a branch of a decision, not a
 * check that must pass. Read in its clause (after the last stop, `;`, `:` or
 * line break) of the 60 characters before.
 */
function ledByCondition(before: string): boolean {
  const text = before.slice(-60)
  const clauseStart = Math.max(...['.', ';', ':', '!', '?', '\n'].map((stop) => text.lastIndexOf(stop)))
  return /\b(?:if|whether|unless|in case)\b/i.test(text.slice(clauseStart + 1))
}

/** Whether `pattern` (global) matches `text` somewhere that no condition leads. */
function unconditionally(text: string, pattern: RegExp): boolean {
  for (const match of text.matchAll(pattern)) {
    if (!ledByCondition(text.slice(0, match.index))) return true
  }
  return false
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
      command: segment.slice(starts[index], ends[index]),
      commandStart: starts[index],
      start: match.index,
      tail: segment.slice(matchEnd, Math.max(matchEnd, ends[index]))
    })
  }
  return calls
}

/** Whether the options hold a short-option cluster (`-c`, `-Ec`) with `letter`, or the long option `long`. */
export function hasOption(options: string, letter: string, long?: RegExp): boolean {
  return options.split(/\s+/).some((option) => /^-[A-Za-z]+$/.test(option) && option.includes(letter)) || (long?.test(options) ?? false)
}

/** `-c`, `-Ec`, `--count`. */
export function countsMatches(options: string): boolean {
  return hasOption(options, 'c', /--count\b/)
}

/** `-v`, `-cv`, `--invert-match`: counting non-matching lines turns `== 0` into a positive check. */
export function invertsMatch(options: string): boolean {
  return hasOption(options, 'v', /--invert-match\b/)
}

/**
 * Whether a `!` negates this grep: the part of its command before it, after
 * the last boundary (`;`, `(`, a backtick, a tag's `>`, `then`, `do`), is `!`
 * alone (`! grep -q X f`, `` `! grep …` ``, `<automated>! grep`) or `!` at the
 * head of a pipeline into it (`! cat f | grep X`). A `!` elsewhere on the line
 * negates another command.
 */
function negated(segment: string, call: GrepCall): boolean {
  const lead = segment.slice(call.commandStart, call.start)
  const boundary = Math.max(lead.lastIndexOf(';'), lead.lastIndexOf('('), lead.lastIndexOf('`'), lead.lastIndexOf('>'))
  const part = lead
    .slice(boundary + 1)
    .trimStart()
    .replace(/^(?:then|do|else)\s+/, '')
  return part.startsWith('!') && (part.slice(1).trim() === '' || part.includes('|'))
}

/**
 * The file a grep reads: the argument after its pattern, else the file of a
 * `cat`/`tac` producer or a `<` redirect in its command. Only a candidate: the
 * caller decides whether it is a path.
 */
export function grepTarget(call: GrepCall, isFile: (token: string) => boolean): string | undefined {
  const quoted = /^\s+(['"])([^'"\n]+)\1/.exec(call.rest)
  const candidates = [
    // A path may hold a route group (`src/app/(dashboard)/page.tsx`, or as the shell escapes it, `src/app/\(dashboard\)/`), or be quoted.
    quoted ? quoted[2] : /^\s+((?:[^\s'"`|>&;$()[\]]|\([\w.-]+\\?\)\/)+)/.exec(call.rest)?.[1]?.replace(/\\([()])/g, '$1'),
    /\b(?:cat|tac)\s+([^\s'"`|>&;()]+)/.exec(call.command)?.[1],
    /<\s*([^\s'"`|>&;()]+)/.exec(call.command)?.[1]
  ]
  return candidates.find((token) => token !== undefined && isFile(token))
}

/** How a negative grep says "nothing may match": by its count or by `!`. */
export type NegativeForm = 'grep -c … == 0' | '! grep …' | 'grep … returns nothing'

/**
 * Words that say a command prints nothing: "returns nothing", "no output",
 * "no matches", "is empty". A pattern's source, for the rules that
 * read such a check in their own way.
 */
export const expectsNoOutput = String.raw`\b(?:returns?|prints?|outputs?|shows?|finds?|yields?|gives?)\s+nothing\b|\bno\s+(?:output|match(?:es)?|results?|hits)\b|\b(?:is|be)\s+empty\b`

const expectsNothing = new RegExp(expectsNoOutput, 'gi')

/**
 * The greps of a segment that must find nothing for their command to pass: a
 * count (`-c`) whose own comparison, after it, is with zero (`grep -c 'X' f
 * == 0`, "`grep -c 'X' f` must equal 0"), or the first grep of a negated
 * command (`! grep -q 'X' f`, `! grep -rn 'X' src | grep -v test`), or the
 * first grep of a command said to find nothing ("`grep -n 'X' f` must return
 * nothing", "no matches"). An inverted grep (`-v`) asserts the opposite and
 * is never one.
 */
export function negativeGreps(segment: string): Array<GrepCall & {form: NegativeForm}> {
  const calls = grepCalls(segment)
  const negative: Array<GrepCall & {form: NegativeForm}> = []
  for (const [index, call] of calls.entries()) {
    // "If `grep -c X f` returns 0, stop": the grep picks a branch.
    if (invertsMatch(call.options) || ledByCondition(segment.slice(0, call.start))) continue
    const first = index === 0 || calls[index - 1].commandStart !== call.commandStart
    if (countsMatches(call.options) && comparesWithZero(call.tail)) negative.push({...call, form: 'grep -c … == 0'})
    else if (first && negated(segment, call)) negative.push({...call, form: '! grep …'})
    else if (first && !countsMatches(call.options) && unconditionally(call.tail, expectsNothing)) negative.push({...call, form: 'grep … returns nothing'})
  }
  return negative
}

/**
 * Where the patterns of the greps quoted in a text (an `<action>` that pastes
 * a check) are, as ranges: a literal there is part of a command to run, not
 * text to write. `negativeOnly` keeps the greps that must find nothing.
 */
export function grepPatterns(text: string, offset = 0, negativeOnly = false): Array<[number, number]> {
  return shellSegments(text, offset).flatMap((segment) =>
    (negativeOnly ? negativeGreps(segment.text) : grepCalls(segment.text)).map((call): [number, number] => [segment.start + call.patternStart, segment.start + call.patternEnd])
  )
}

/**
 * Whether a grep reads another program's output (`npm run build 2>&1 | grep
 * -c warning`), not a file: no file argument, and the first stage of its
 * pipeline is no file reader.
 */
export function readsProgramOutput(segment: string, call: GrepCall): boolean {
  if (/^\s+[^\s|;&)`'"-]/.test(call.rest.split('|')[0]) || /^\s+['"]/.test(call.rest)) return false
  const lead = segment.slice(call.commandStart, call.start)
  if (!lead.includes('|')) return false
  const producer = lead.slice(0, lead.indexOf('|')).trim().replace(/^[!$("`\s]+/, '')
  return !/^(?:grep|cat|tac|sed|awk|head|tail|sort|uniq|cut|tr|rg|find|ls|git)\b/.test(producer)
}

/**
 * A grep fed by a `sed -n` line range, an `awk` range, `head` or `tail`, or a
 * grep with context lines (`grep -A 4 'def test_' f | grep -c X`): it checks
 * a region, not the whole file.
 */
export function isRegionScoped(segment: string): boolean {
  const pipe = segment.lastIndexOf('|')
  if (pipe === -1) return false
  const before = segment.slice(0, pipe)
  // `head`/`tail` read the first or last lines only.
  return /\bsed\s+-n\b/.test(before) || before.split('|').some((stage) => awkRange(stage) || grepContext(stage) || /(?:^|[\s!("$`])(?:head|tail)\s/.test(stage))
}

/** Whether a pipeline stage is a grep that prints context lines (`-A 4`, `-nB2`, `--after-context=4`). */
function grepContext(stage: string): boolean {
  const grep = /\bgrep\b/.exec(stage)
  const words = grep ? stage.slice(grep.index).split(/\s+/) : []
  return words.some((word) => /^-[A-Za-z]*[ABC]\d*$/.test(word) || /^--(?:after-|before-)?context\b/.test(word))
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

/**
 * Where the commit messages of a text are: each quoted `-m` argument of a
 * `git commit` (over several lines if it runs on), or the here-document on the
 * `git commit` line (`git commit -m "$(cat <<'EOF'` … `EOF`). A message says
 * what the change did ("drop renderFoo"); it is not text the task writes into a file.
 * Scanned with indexOf, so a quote that is never closed costs one pass.
 */
export function commitMessages(text: string): Array<[number, number]> {
  const ranges: Array<[number, number]> = []
  for (let at = text.indexOf('git commit'); at !== -1; at = text.indexOf('git commit', at + 1)) {
    if (ranges.length > 0 && at < ranges[ranges.length - 1][1]) continue
    const lineStart = text.lastIndexOf('\n', at) + 1
    const lineEnd = endOfLine(text, at)
    const heredoc = /<<-?\s*(['"]?)([A-Za-z_]\w*)\1/.exec(text.slice(lineStart, lineEnd))
    if (heredoc) {
      let end = lineEnd
      while (end < text.length && text.slice(end + 1, endOfLine(text, end + 1)).trim() !== heredoc[2]) end = endOfLine(text, end + 1)
      ranges.push([at, endOfLine(text, end + 1)])
      continue
    }
    let end = at
    for (let rest = text.slice(at, lineEnd), option = /\s-[A-Za-z]*m\s*(["'])/.exec(rest); option; option = /\s-[A-Za-z]*m\s*(["'])/.exec(rest)) {
      const open = end + option.index + option[0].length
      let close = open
      while (close < text.length && text[close] !== option[1]) close += text[close] === '\\' && option[1] === '"' ? 2 : 1
      end = Math.min(close + 1, text.length)
      rest = text.slice(end, endOfLine(text, end))
    }
    if (end > at) ranges.push([at, end])
  }
  return ranges
}

/** Where the line holding `from` ends (its `\n`, or the end of the text). */
export function endOfLine(text: string, from: number): number {
  const end = text.indexOf('\n', from)
  return end === -1 ? text.length : end
}

/**
 * A line that names text to take away ("Replace X with Y", "remove X", "X →
 * Y", "change X to Y", "refactor X into Y", "rewrite X as Y", "X becomes Y",
 * "X is unused", "confirm no X remains", "no remaining X", "if X survived",
 * the value a file holds now: "(currently `X`)", "it currently says X"),
 * not text the task writes: the words in English, and by stem in
 * the other languages plans are written in: Spanish and Portuguese
 * (reemplazar, sustituir, substituir, eliminar, borrar, remover, en vez de),
 * French (remplacer, supprimer, au lieu de), German (ersetzen, entfernen,
 * löschen, statt), Russian (заменить, удалить, вместо), Chinese (替换, 删,
 * 改为, 解除) and Japanese (置き換え, 削除, 代わりに).
 */
export function namesOldText(line: string): boolean {
  return takesAway.test(line) || takesAwayElsewhere.test(line)
}

const takesAway =
  /\b(replace[sd]?|replacing|remove[sd]?|removing|removal|delete[sd]?|deleting|deletion|drop(s|ped)?(?!-)|rename[sd]?|strip(s|ped)?|instead of|no longer|get rid of|migrate (away )?from|dead code|unused|obsolete|leftovers?|remnants?|rm|becomes?|zero (?:occurrences|matches|references|hits))\b|→|^\W*(?:from|old|before)\s*:|\b(?:chang|updat)(?:e[sd]?|ing)\b[^\n]{0,120}?\bto\b|\b(?:refactor|convert|rewrit|rewrote|switch|swap|turn)\w*\b[^\n]{0,120}?\b(?:to|into|as)\s+(?:an?\s+|the\s+)?[`'"]|[`"']\s*->\s*(?:[`"']|$)|\bno\b[^\n]{0,80}?\b(?:remains?|appears?|is left)\b|\b(?:any|no|zero|every|each|all|the)\s+(?:remaining|surviving|stray|lingering|residual)\b|\b(?:if|whether|any|no|none)\b[^\n]{0,80}?\bsurviv(?:e[sd]?|ing)\b|\bcurrently\s+(?:(?:is|are|reads?|says?|set\s+to|shows?|holds?|contains?|returns?|equals?|at)\s+)?[`'"\d]|\bcurrently\s+(?:reads?|says?|shows?)\b/i
const takesAwayElsewhere =
  /\b(?:reemplaz|sustitu|substitu|elimin|borr[aeoá]|remov|remplac|supprim|ersetz|entfern|lösch|en (?:vez|lugar) de|em vez de|au lieu de|statt)|замен|удал|вместо|替换|替代|删|移除|去掉|去除|改为|改成|换成|解除|置き換|削除|代わりに/i

/** The text with the given ranges turned to spaces (line breaks kept), so offsets and lines stay. */
export function blankRanges(text: string, ranges: Array<[number, number]>, offset = 0): string {
  let result = text
  for (const [start, end] of ranges) {
    const from = Math.max(0, start - offset)
    const to = Math.min(text.length, end - offset)
    if (to > from) result = result.slice(0, from) + result.slice(from, to).replace(/[^\n]/g, ' ') + result.slice(to)
  }
  return result
}
