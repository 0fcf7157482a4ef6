import type {PlanDocument} from '../src/model/document.js'
import type {Element} from '../src/model/markup.js'
import type {Range} from '../src/model/text.js'
import {andList, elementsNamed, lineOf, taskOf} from '../src/plan.js'
import {defineRule, type Severity} from '../src/rule.js'
import {allowListed, countsMatches, expectsNoOutput, grepCalls, grepTarget, hasOption, invertsMatch, shellSegments, shellView, type GrepCall} from '../src/shell.js'
import {countUpTo} from '../src/sorted.js'

type Trap = 'R1' | 'R2' | 'R3' | 'R4' | 'R5' | 'R6'

interface Options {
  /** The trap shapes to report, by GSD's numbers. */
  traps: Trap[]
  /** R4 for every `git` before a pipe, not only one that names a remote-tracking ref or another folder. */
  gitPipeFailures: boolean
}

interface Found {
  trap: Trap
  range: Range
  /** The message before its GSD tag, so that the other lines of the same cause can be named before it. */
  message: string
  /** What makes two findings one cause: the same trap in the same command (the same grep and count for R1). */
  cause: string
  severity?: Severity
  /** GSD's own check reports the same shape: planlint reads `git`'s global options, which GSD's patterns do not. */
  gsd?: boolean
}

type TrapIn = Omit<Found, 'range'> & {index: number; length: number}

/** The elements whose text is a check: `<acceptance_criteria>`, `<verify>` and `<automated>` (once, not again inside `<verify>`). */
function criteriaZones(document: PlanDocument): Array<{element: Element; prose: boolean}> {
  const zones = document.tasks.flatMap((task) =>
    ['acceptance_criteria', 'verify', 'automated'].flatMap((name) => elementsNamed(task, name))
  )
  const inside = insideAny(zones)
  return zones.filter((element) => !inside(element)).map((element) => ({element, prose: element.name === 'acceptance_criteria'}))
}

/**
 * Whether an element lies in the content of one of `zones`: the zones sorted
 * by where their content starts, with the furthest content end so far, so a
 * plan with thousands of `<verify>`s is not checked pair by pair. An element
 * is never inside its own content (its opening tag comes first).
 */
function insideAny(zones: Element[]): (element: Element) => boolean {
  const sorted = zones.map((zone) => zone.contentRange).sort((a, b) => a[0] - b[0])
  const furthestEnd: number[] = []
  for (const [index, [, end]] of sorted.entries()) furthestEnd.push(Math.max(end, furthestEnd[index - 1] ?? -1))
  return (element) => {
    const before = countUpTo(sorted, (range) => range[0], element.range[0])
    return before > 0 && element.range[1] <= furthestEnd[before - 1]
  }
}

/** `<!-- plan-criteria-allow: R1 - reason -->`: GSD's own exit, with a reason that is not empty. */
function allowedTraps(text: string): Set<string> {
  const allowed = new Set<string>()
  for (const value of allowListed(text, 'plan-criteria-allow')) {
    const trap = /^(R[1-6])\s+-\s+\S/.exec(value)
    if (trap) allowed.add(trap[1])
  }
  return allowed
}

const numberWords = 'one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve'
const bulkRed = [
  new RegExp(`\\ball\\s+(?:\\d+|${numberWords})\\s+tests\\b[^\\n.]{0,120}?observed\\s+fail`, 'i'),
  /\btests\s+\d+\s+through\s+\d+\b[^\n.]{0,120}?observed\s+fail/i
]

/** The exact counts a segment compares with (`== 3`, `-eq 3`, "returns exactly 3"), with their offsets. */
function exactCounts(segment: string): Array<{count: number; index: number; length: number}> {
  const found = []
  for (const pattern of [/\s==?\s*(\d+)\b/g, /-eq\s+(\d+)\b/g, /\breturns?\s+exactly\s+(\d+)\b/gi]) {
    for (const match of segment.matchAll(pattern)) found.push({count: Number(match[1]), index: match.index, length: match[0].length})
  }
  return found
}

/** The numbers a `grep -x N` / `grep --line-regexp N` compares whole lines with, as strings, with where their grep starts. */
function lineComparisons(segment: string): Array<{value: string; index: number}> {
  const numbers = []
  for (const match of segment.matchAll(/\bgrep\s+(-{1,2}[A-Za-z-]{1,40})\s+['"]?(\d+)/g)) {
    const option = match[1]
    if (option === '--line-regexp' || (/^-[A-Za-z]+$/.test(option) && option.includes('x'))) numbers.push({value: match[2], index: match.index})
  }
  return numbers
}

/** Words after a count that make it a lower bound: "= 4 minimum", "= 4 or more", "= 4+". */
const lowerBound = /^(?:\+|\s*\(?(?:min(?:imum)?\b|or more\b|or greater\b|at least\b))/i

/**
 * Words after a count that say it was measured as it stands ("= 4 (unchanged
 * from the baseline)", "(both call sites untouched)"): a count of lines read
 * off the same grep, not a guess at matches.
 */
const keepsBaseline = /^[^\n]*?\b(?:unchanged|untouched|intact|baseline|as before|same as before)\b/i

/** The numbers a segment says are as things stand: "currently 12 calls", "12 calls today". */
function currentCounts(segment: string): number[] {
  const counts = []
  for (const pattern of [/\b(?:currently|at present|right now)\b\D{0,40}(\d+)/gi, /\b(\d+)\D{0,40}?\b(?:today|currently|at present)\b/gi]) {
    for (const match of segment.matchAll(pattern)) counts.push(Number(match[1]))
  }
  return counts
}

/** A bound (`≥ 12`, `>= 1`, `-ge 2`, "at least") between a grep and a later `= N`: that later number is prose ("3 × 4 = 12"), not the comparison. */
function boundedBefore(segment: string, call: GrepCall | undefined, index: number): boolean {
  return call !== undefined && /[≥≤]|>=|<=|-(?:ge|gt|le|lt)\b|\bat (?:least|most)\b|\b(?:more|fewer|less) than\b/i.test(segment.slice(call.patternEnd, index))
}

/** The counting grep whose comparison is at `index`: the last one before it. */
function countOf(calls: GrepCall[], index: number): GrepCall | undefined {
  return calls.filter((call) => countsMatches(call.options) && call.patternEnd <= index).pop()
}

/**
 * Whether a count of `count` lines is a count of matches too: the pattern
 * matches whole lines (`-x`) or is anchored at the line start (`'^\s+(a|b)$'`,
 * `'^[[:space:]]*@Test'`), or it is what starts or makes up its line (see
 * `lineHeads`), or a call or a callee (`isCall`), or any one token of a file
 * whose lines are one entry each (YAML, TOML, INI, `.env`), or it is an
 * alternation of `count` distinct alternatives, each named line once
 * (`'def test_a|def test_b'` == 2, `'handle(Open|Close)Event'` == 2).
 */
function linesAreMatches(call: GrepCall | undefined, count: number): boolean {
  if (!call) return false
  if (hasOption(call.options, 'x') || /--line-regexp\b/.test(call.options)) return true
  const pattern = call.pattern
  // A line has one start: a pattern anchored there matches at most once per line.
  if (pattern.startsWith('^')) return true
  const fixed = hasOption(call.options, 'F', /--fixed-strings\b/)
  const extended = hasOption(call.options, 'E') || hasOption(call.options, 'P') || /--extended-regexp\b|--perl-regexp\b/.test(call.options)
  if (isCall(pattern, extended && !fixed)) return true
  // The text the pattern matches, its escapes taken off (`\[x\]` is `[x]`); `\|` stays, as it is alternation in a basic pattern.
  const text = fixed ? pattern : pattern.replace(/\\([^\w\s|])/g, '$1')
  if (lineHeads.some((head) => head.test(text))) return true
  const target = grepTarget(call, (token) => !token.startsWith('-'))
  if (target !== undefined && entryPerLine.test(target) && !/\s/.test(text)) return true
  const alternatives = namedAlternatives(pattern, extended ? '|' : '\\|')
  return alternatives.length === count && new Set(alternatives).size === count && alternatives.every((alternative) => /\w/.test(alternative))
}

/**
 * What starts or makes up its line, so a line holds one: an assignment or a
 * key (`FOO=`, `x = `, `  name:`, `secure: false`; not `==`, `::` or a
 * URL's `://`), a declaration or a statement (`public static readonly`,
 * `if (…)`, `return …`, `UPDATE …`), a Markdown heading, task-list box or
 * table cell, an attribute or annotation (`[Test]`, `@Test`), and a whole
 * string literal, as a list's element is written one to a line.
 */
const lineHeads = [
  /^[\s"'-]*[A-Za-z_$][\w$.-]*\s*(?:=(?!=)|:(?![:/]))/,
  /^\s*(?:export|public|private|protected|internal|static|readonly|abstract|final|override|async|const|let|var|val|def|function|func|fn|pub|class|struct|interface|enum|type|import)\s+[\w${*]/,
  /^\s*(?:(?:if|for|while|switch)\s*\(|(?:return|throw)\s+\S|(?:UPDATE|CREATE|ALTER|DROP)\s+\w|INSERT\s+INTO\b|DELETE\s+FROM\b)/,
  /^\s*#{1,6}\s/,
  /^\s*(?:[-*]\s+)?\[[ xX]\]/,
  /^\|[^|]+\|$/,
  /^\[[A-Z][a-z]\w*(?:\([^)]*\))?\]$/,
  /^@[A-Z]\w*$/,
  /^(["'])[^"'\n]*\1,?$/
]

/** Files whose lines are one entry each (a key and its value, a list item): YAML, TOML, INI, `.env`. */
const entryPerLine = /\.(?:ya?ml|toml|ini|cfg|properties)$|(?:^|\/)\.env(?:\.[\w.-]+)?$/i

/**
 * Whether a pattern is a whole call: a name (`this.flush`, `registerRoute`),
 * then `(`, then at most `)`, a first string argument (`addField("`), the
 * head of a call as first argument (`StartCoroutine(FadeIn(`) or its whole
 * list of plain arguments (`setFixedSize(180, 180)`); or a callee
 * path of three names or more (`Registry.shared.register`, `Card.Instance?.Refresh`).
 * A call is a statement of its own line, so its lines are its matches. In an
 * extended pattern the parenthesis is escaped (`\(`); in a basic one `\(`
 * opens a group, and the pattern is no call.
 */
function isCall(pattern: string, extended: boolean): boolean {
  if (extended ? /(?:^|[^\\])[()]/.test(pattern) : pattern.includes('\\(')) return false
  return callShape.test(pattern.replace(/\\([().])/g, '$1'))
}

const name = String.raw`[A-Za-z_$][\w$]*`
const namePath = String.raw`${name}(?:(?:\?\.|\.|->|::)${name})*`
/** A plain argument of a whole call: a name path, a number or a string. */
const plainArgument = String.raw`(?:${namePath}|-?\d+(?:\.\d+)?|"[^"()]*"|'[^'()]*')`
const callShape = new RegExp(
  String.raw`^(?:await\s+|new\s+)?${namePath}\((?:\)|["'][^"'()]*["']?|${namePath}\(|\s*${plainArgument}(?:\s*,\s*${plainArgument})*\s*\))?;?$|^${name}(?:(?:\?\.|\.|->|::)${name}){2,}$`
)

/**
 * The alternatives a pattern names: those at its outermost level, or else
 * those of its one group between a prefix and a suffix without alternation
 * (`handle(Open|Close)Event` is `Open`, `Close`).
 */
function namedAlternatives(pattern: string, bar: '|' | '\\|'): string[] {
  const outer = topLevelAlternatives(pattern, bar)
  if (outer.length > 0) return outer
  const open = bar === '|' ? '(' : '\\('
  let start = -1
  for (let index = 0; index < pattern.length && start === -1; index++) {
    if (pattern.startsWith(open, index)) start = index
    else if (pattern[index] === '\\') index++
  }
  const length = start === -1 ? -1 : groupCloses(pattern.slice(start), open, bar === '|' ? ')' : '\\)')
  if (length === -1) return []
  const end = start + length + (bar === '|' ? 1 : 2)
  if ((pattern.slice(0, start) + pattern.slice(end)).includes('|')) return []
  return topLevelAlternatives(pattern.slice(start, end), bar)
}

/**
 * A pattern's alternatives at the outermost level (`a|b|(c|d)` is `a`, `b`,
 * `(c|d)`), after one group that wraps the whole pattern; `bar` is `|` in an
 * extended pattern, `\|` in a basic one. One pass over the pattern.
 */
function topLevelAlternatives(pattern: string, bar: '|' | '\\|'): string[] {
  const open = bar === '|' ? '(' : '\\('
  const close = bar === '|' ? ')' : '\\)'
  let body = pattern
  if (body.startsWith(open) && body.endsWith(close) && groupCloses(body, open, close) === body.length - close.length) body = body.slice(open.length, -close.length)
  const alternatives: string[] = []
  let depth = 0
  let start = 0
  for (let index = 0; index < body.length; index++) {
    if (body.startsWith(open, index)) depth++
    else if (body.startsWith(close, index)) depth--
    else if (depth === 0 && body.startsWith(bar, index)) {
      alternatives.push(body.slice(start, index))
      start = index + bar.length
    }
    if (body[index] === '\\') index++
  }
  alternatives.push(body.slice(start))
  return alternatives.length > 1 ? alternatives : []
}

/** Where the group opened at the start of `text` closes. */
function groupCloses(text: string, open: string, close: string): number {
  let depth = 0
  for (let index = 0; index < text.length; index++) {
    if (text.startsWith(open, index)) depth++
    else if (text.startsWith(close, index) && --depth === 0) return index
    if (text[index] === '\\') index++
  }
  return -1
}

/**
 * The parts of a segment that are commands: inside its code spans when it has
 * them (`` - `git diff` shows nothing `` is prose around a command), else the
 * whole segment.
 */
function commandParts(segment: string): Range[] {
  const ticks: number[] = []
  for (let at = segment.indexOf('`'); at !== -1; at = segment.indexOf('`', at + 1)) ticks.push(at)
  if (ticks.length < 2) return [[0, segment.length]]
  const parts: Range[] = []
  for (let index = 0; index + 1 < ticks.length; index += 2) parts.push([ticks[index] + 1, ticks[index + 1]])
  return parts
}

/** One `git` command of a segment and the pipeline it stands in. */
interface GitPipeline {
  /** Where `git` starts. */
  index: number
  /** The `|` after the `git` command, when it pipes on. */
  pipe?: number
  /** Where the `git` command's own stage ends (its `|`, `;`, `)` or the end of its command part). */
  stageEnd: number
  /** Where its pipeline ends. */
  pipelineEnd: number
  /** Where the command it is part of ends: its `;` or `&`, else the end of the segment (prose after a code span speaks of it). */
  commandEnd: number
  /** It runs inside a `$(…)`, whose output something else reads. */
  nested: boolean
  /** The last stage of its pipeline, when it pipes on. */
  lastStage: string
  /** Every stage after its own passes on or counts every line it reads (`keepsEveryLine`). */
  laterKeepEveryLine: boolean
}

/** A pipeline of a command part: the `git` commands in it, the `|` between its stages, and the `git` commands of its current stage. */
interface OpenPipeline {
  depth: number
  /** Its `git` commands, each with the number of its stage. */
  gits: Array<{git: GitPipeline; stage: number}>
  pipes: number[]
  stage: GitPipeline[]
}

/**
 * The `git` commands of a segment that the shell runs (not inside quotes,
 * except in a `$(…)` within them), each with the stage and pipeline it ends.
 * One pass per command part, with a stack of the `$(…)`, `(…)` and `"…"` open;
 * the `&` of a redirection (`2>&1`, `&>`) separates nothing.
 */
function gitPipelines(segment: string): GitPipeline[] {
  const found: GitPipeline[] = []
  // A `git` command, its global options included (`git -C app log`), read where `git` stands.
  const gitStart = new RegExp(String.raw`${gitCommand}[a-z]`, 'y')
  const startsGitCommand = (at: number) => {
    gitStart.lastIndex = at
    return gitStart.test(segment)
  }
  const parts = commandParts(segment)
  for (const [partIndex, [from, to]] of parts.entries()) {
    const stack: Array<'$(' | '(' | '"'> = []
    // The pipelines with a `git` still open, the deepest last: a `)` or `;` closes the top ones.
    const open: OpenPipeline[] = []
    const inPart: GitPipeline[] = []
    // Where the commands of the part end: `;`, `&` and `||` outside any `(…)`.
    const separators: number[] = []
    const close = (depth: number, at: number, endsCommand: boolean) => {
      if (endsCommand && depth === 0) separators.push(at)
      while (open.length > 0 && open[open.length - 1].depth >= depth) closePipeline(segment, open.pop()!, at)
    }
    for (let at = from; at < to; at++) {
      const char = segment[at]
      if (stack[stack.length - 1] === '"') {
        if (char === '\\') at++
        else if (char === '"') stack.pop()
        else if (char === '$' && segment[at + 1] === '(') {
          stack.push('$(')
          at++
        }
        continue
      }
      if (char === "'") {
        const quoteEnd = segment.indexOf("'", at + 1)
        at = quoteEnd === -1 || quoteEnd >= to ? to : quoteEnd
      } else if (char === '"') {
        stack.push('"')
      } else if (char === '\\') {
        at++
      } else if (char === '(') {
        stack.push(segment[at - 1] === '$' ? '$(' : '(')
      } else if (char === ')') {
        close(stack.length, at, false)
        stack.pop()
      } else if (char === '|') {
        if (segment[at + 1] === '|') close(stack.length, at++, true)
        else {
          const pipeline = open[open.length - 1]
          if (pipeline?.depth === stack.length) {
            pipeline.pipes.push(at)
            for (const git of pipeline.stage) {
              git.pipe = at
              git.stageEnd = at
            }
            pipeline.stage = []
          }
        }
      } else if (char === ';' || (char === '&' && segment[at - 1] !== '>' && segment[at + 1] !== '>')) {
        close(stack.length, at, true)
      } else if (char === 'g' && segment.startsWith('git', at) && startsGitCommand(at) && !/[\w.@/-]/.test(segment[at - 1] ?? '')) {
        const git = {index: at, stageEnd: to, pipelineEnd: to, commandEnd: to, nested: stack.includes('$('), lastStage: '', laterKeepEveryLine: true}
        let pipeline = open[open.length - 1]
        if (pipeline?.depth !== stack.length) {
          pipeline = {depth: stack.length, gits: [], pipes: [], stage: []}
          open.push(pipeline)
        }
        pipeline.gits.push({git, stage: pipeline.pipes.length})
        pipeline.stage.push(git)
        inPart.push(git)
      }
    }
    close(0, to, false)
    // Prose after a code span speaks of its command, up to the next span.
    const partEnd = partIndex + 1 < parts.length ? parts[partIndex + 1][0] - 1 : segment.length
    let separator = 0
    for (const git of inPart) {
      while (separator < separators.length && separators[separator] <= git.index) separator++
      git.commandEnd = separators[separator] ?? partEnd
    }
    found.push(...inPart)
  }
  return found.sort((a, b) => a.index - b.index)
}

/**
 * Ends a pipeline at `at`: its `git` commands learn where it ends, its last
 * stage, and whether every stage after their own keeps every line. Each stage
 * is read once, however many `git` commands the pipeline holds.
 */
function closePipeline(segment: string, pipeline: OpenPipeline, at: number): void {
  const {pipes} = pipeline
  const stages = pipes.map((pipe, index) => segment.slice(pipe + 1, pipes[index + 1] ?? at).trim())
  // keptFrom[i]: every stage from the i-th on keeps every line.
  const keptFrom: boolean[] = []
  for (let index = stages.length - 1; index >= 0; index--) keptFrom[index] = keepsEveryLine.test(stages[index]) && (keptFrom[index + 1] ?? true)
  for (const {git, stage} of pipeline.gits) {
    if (git.pipe === undefined) git.stageEnd = Math.min(git.stageEnd, at)
    git.pipelineEnd = at
    git.lastStage = stages[stages.length - 1] ?? ''
    git.laterKeepEveryLine = keptFrom[stage] ?? true
  }
}

/**
 * The `git` commands of a segment whose failure reads as a pass: the check
 * wants nothing (`| wc -l | grep -x 0`, `== 0`, "no output") after its pipe,
 * or negates the pipeline, so the nothing
 * a failing `git` prints passes it. Output read or captured in `$(…)` and
 * compared with something else fails when `git` does, as it should; and a
 * pipeline whose output nothing compares (`git log | head -20`, `git status
 * --porcelain | wc -l`) passes whatever `git` does: its output, where `git`'s
 * error shows, is the check. Nor is the failure hidden when `git`'s errors
 * join the pipe (`2>&1`) and nothing after filters lines: the error is output.
 * Read once per segment: `wantsNothing` (`wantsNothingAt`) and the `2>&1`s are
 * found once and looked up for each `git`, so a long line stays linear.
 */
function swallowedGits(segment: string, pipelines: GitPipeline[], wantsNothing: number[]): Set<GitPipeline> {
  const piped = pipelines.filter((git) => git.pipe !== undefined)
  if (piped.length === 0) return new Set()
  // Where `git`'s errors join the pipe: found once, then looked up per `git`.
  const joinsErrors = [...segment.matchAll(/\s2>&1(?!\d)/g)].map((match) => match.index)
  return new Set(
    piped.filter(
      (git) =>
        negatedAt(segment, git.index) ||
        (anyWithin(wantsNothing, git.pipe! + 1, git.commandEnd) && !(anyWithin(joinsErrors, git.index, git.stageEnd) && git.laterKeepEveryLine))
    )
  )
}

/** Where a segment's words or comparisons want no output (`wantsNoOutput`, `grep -x 0`), in order. None spans a `|`, `;` or `&`, so one that starts in a command's pipe stages lies in them. */
function wantsNothingAt(segment: string): number[] {
  const starts = [...segment.matchAll(wantsNoOutput)].map((match) => match.index)
  for (const comparison of lineComparisons(segment)) if (comparison.value === '0') starts.push(comparison.index)
  return starts.sort((a, b) => a - b)
}

/** Whether one of `starts` (in order) lies in `[from, to)`. */
function anyWithin(starts: number[], from: number, to: number): boolean {
  return countUpTo(starts, (start) => start, to - 1) > countUpTo(starts, (start) => start, from - 1)
}

/** Stages that pass on or count every line they read, so an error line piped into them still shows. */
const keepsEveryLine = /^`?(?:wc|cat|tee|sort|tr)\b/

/**
 * The check wants no output, what a failing command prints: the words of any
 * such check (`expectsNoOutput`), and also `== 0`, "no lines", and "empty" or
 * "nothing" without a verb ("returns EMPTY"), which after a `git` command
 * speak of its output (a grep's "no lines" may speak of a later stage's).
 */
const wantsNoOutput = new RegExp(String.raw`${expectsNoOutput}|(?:==?|-eq)\s*0(?!\d)|\bno\s+lines?\b|(?<!non-|not )\bempty\b|\bnothing\b`, 'gi')

/** `! git …`: the pipeline's status is turned over. */
function negatedAt(segment: string, index: number): boolean {
  return /!\s*`?$/.test(segment.slice(Math.max(0, index - 4), index))
}

/**
 * A `git` whose failure fails its segment: not in `$(…)`, not negated, and
 * alone or piped into a grep that must match (`git log -1 --pretty=%s | grep
 * -qxF 'feat: x'`). After it in an `&&` chain, a `git` on the same
 * repository cannot fail alone: the chain stops first.
 */
function guardingGit(segment: string, pipelines: GitPipeline[], swallowed: Set<GitPipeline>, wantsNothing: number[]): GitPipeline | undefined {
  return pipelines.find((git) =>
    git.pipe === undefined
      ? // A bare `git` fails its check unless the check wants it to print nothing (`git diff --stat f` "returns EMPTY").
        !git.nested && !negatedAt(segment, git.index) && !anyWithin(wantsNothing, git.stageEnd, git.commandEnd)
      : pipesIntoMatch(segment, git, swallowed)
  )
}

/** A `git` piped into a grep that must match (`git log -1 --pretty=%s | grep -qxF 'feat: x'`): a failure or an empty output fails the check. */
function pipesIntoMatch(segment: string, git: GitPipeline, swallowed: Set<GitPipeline>): boolean {
  if (git.pipe === undefined || git.nested || negatedAt(segment, git.index) || swallowed.has(git)) return false
  const grep = grepCalls(git.lastStage)[0]
  return grep !== undefined && grep.start === 0 && !invertsMatch(grep.options)
}

/** The `git` commands that read their words as revisions or paths, and stop when one names nothing (`git diff gone.ts`: "ambiguous argument"). */
const revisionCommands = new Set(['diff', 'log', 'show', 'grep', 'shortlog', 'rev-list', 'whatchanged', 'blame'])

/**
 * How a `git` stage fails and prints nothing, said of the stage itself: a
 * remote-tracking ref it names can be missing (`origin/main`), the folder
 * of `-C` or `--git-dir=` can be no repository, a revision can name no
 * commit (`git diff main`), a path with no `--` before it can be absent
 * (mistyped, moved, or deleted by the task); else it can run outside a
 * repository. With the command's name (`git diff`), global options left out,
 * and whether the failure lies outside the plan's own checkout (`elsewhere`).
 * `refs` are the stage's `remoteRefs`.
 */
function gitFailure(stage: string, refs: string[]): {command: string; failure: string; elsewhere?: boolean} {
  const words = shellWords(stage)
  let index = 1
  let repository: string | undefined
  while (index < words.length && words[index].startsWith('-')) {
    const word = words[index]
    if (word === '-C') repository = words[index + 1]
    if (word.startsWith('--git-dir=')) repository = word.slice('--git-dir='.length)
    index += word === '-C' || word === '-c' ? 2 : 1
  }
  const subcommand = words[index] ?? ''
  const command = `git ${subcommand}`.trim()
  // `origin/main..HEAD` names the ref up to its range's dots.
  if (refs.length > 0) return {command, failure: `where \`${refs[0].split(/\.{2,3}/)[0]}\` is missing (no remote, or not fetched)`, elsewhere: true}
  if (repository !== undefined) return {command, failure: `where \`${repository}\` is no repository`, elsewhere: true}
  if (revisionCommands.has(subcommand)) {
    // Up to `--`, the words that are not options, numbers (`-n 5`), redirections or variables; a grep's first one is its pattern.
    const end = words.indexOf('--', index)
    const named = words.slice(index + 1, end === -1 ? undefined : end).filter((word) => /^[\w./@{}^~:-]+$/.test(word) && !word.startsWith('-') && !/^\d+$/.test(word))
    if (subcommand === 'grep') named.shift()
    const revisions = named.flatMap((word) => (word.includes('..') ? word.split(/\.{2,3}/) : isPathWord(word) ? [] : [word])).filter((word) => word !== '' && !/^(?:HEAD|@)(?:[~^]\d*)*$/.test(word))
    if (revisions.length > 0) return {command, failure: `where \`${revisions[0]}\` names no commit`}
    const path = named.find((word) => !word.includes('..') && isPathWord(word))
    if (path !== undefined) return {command, failure: `where \`${path}\` is absent (mistyped, moved or deleted, with no \`--\` before it)`}
  }
  return {command, failure: 'outside a repository (a `cd` gone wrong)'}
}

/** A word that names a path, not a revision: it has a folder (`src/a.ts`, `docs/`) or an extension (`a.ts`). */
function isPathWord(word: string): boolean {
  return word.includes('/') || /\.[A-Za-z][A-Za-z0-9]{0,5}$/.test(word)
}

/** The words of a command, as the shell splits them: quotes group and are taken off; one pass. */
function shellWords(text: string): string[] {
  const words: string[] = []
  let word: string | undefined
  let quote: string | undefined
  for (const char of text) {
    if (quote !== undefined) {
      if (char === quote) quote = undefined
      else word += char
    } else if (char === "'" || char === '"') {
      quote = char
      word ??= ''
    } else if (/\s/.test(char)) {
      if (word !== undefined) words.push(word)
      word = undefined
    } else word = (word ?? '') + char
  }
  if (word !== undefined) words.push(word)
  return words
}

/** The remote-tracking refs a command names (`origin/main`, `@{u}`): they can be missing where `HEAD` is not. */
function remoteRefs(text: string): string[] {
  return text.match(/\b(?:origin|upstream)\/[\w./-]+|@\{u(?:pstream)?\}/g) ?? []
}

/**
 * Whether a task's checks pin `HEAD` to its own commit: a read of `HEAD`'s
 * own commit (`readsHeadCommit`) piped into a grep that must match, or in a
 * criterion that says what it shows ("`git log -1 --pretty=%s` is
 * `fix(03): trim`", "`git log --oneline -2 HEAD` shows `fix(03): trim` on
 * top", "a `fix(03)` commit (check with `git show --stat HEAD`)"). Then
 * `HEAD~1` is that commit's parent.
 */
function pinsHead(text: string): boolean {
  return shellSegments(text).some((segment) =>
    gitPipelines(segment.text).some((git) => {
      if (!readsHeadCommit(segment.text.slice(git.index, git.stageEnd))) return false
      if (git.pipe === undefined) return /\p{L}/u.test(segment.text.slice(0, git.index).replace(/`$/, '') + segment.text.slice(git.stageEnd + 1))
      const grep = grepCalls(git.lastStage)[0]
      return grep !== undefined && grep.start === 0 && !invertsMatch(grep.options) && !negatedAt(segment.text, git.index)
    })
  )
}

/**
 * Whether a `git` stage shows `HEAD`'s own commit with its subject: `git
 * show` of `HEAD`, or `git log` of one or two commits from `HEAD` (the second
 * is the parent `HEAD~1` names), in a format with the subject (the default,
 * `%s`, `%B`, `--oneline`).
 */
function readsHeadCommit(stage: string): boolean {
  if (!/^git\s+(?:show|log)\b/.test(stage) || /HEAD[~^]|\.\.|\s[\w./-]*:[\w./]|\b(?:origin|upstream)\/|\s[0-9a-f]{7,40}\b/.test(stage)) return false
  if (/--(?:format|pretty)\b/.test(stage) && !/%[sB]|oneline|medium|full/.test(stage)) return false
  return /^git\s+show\b/.test(stage) || /\s(?:-[12]|-n\s*[12]|--max-count=[12])(?!\S)/.test(stage)
}

/**
 * Whether a task's action makes its own commit, before its checks run: it
 * says to commit in verb position (`commitVerb`), and no negation a few
 * words before it in its clause turns it down ("do not run `git commit`
 * yet", "do not stage or commit it"). A commit put off ("do not commit
 * yet", "NO commit todavía") undoes the ones before it, and what its
 * sentence says after it is the plan for later ("— Task 5 commits the
 * batch"); a commit after that sentence is made. "Task 5 commits the …"
 * is another task's commit. Each mention is read in a window of the text
 * before it, so a long action stays linear.
 */
function commitsInAction(action: string): boolean {
  let commits = false
  let skipTo = -1
  for (const match of action.matchAll(/(\bgit\s+|\bgsd-sdk\s+query\s+|\bgsd-tools(?:\.cjs)?\s+)?\bcommit(s?)\b/gi)) {
    if (match.index < skipTo) continue
    const end = match.index + match[0].length
    const pieces = action.slice(Math.max(0, match.index - 60), match.index).split(clauseEnd)
    const clause = pieces[pieces.length - 1]
    const words = clause.split(/\s+/).filter((word) => word !== '')
    const after = action.slice(end, end + 24)
    if (words.slice(-4).some((word) => negation.test(word.replace(/[^\p{L}'’]/gu, '')))) {
      if (putOff.test(after)) {
        commits = false
        const sentence = sentenceEnd.exec(action.slice(end))
        skipTo = sentence ? end + sentence.index : action.length
      }
      continue
    }
    if (match[2] === 's' && otherTask.test(clause)) continue
    if (commitVerb(Boolean(match[1]), match[2] === 's', words, after)) commits = true
  }
  return commits
}

/** After a turned-down commit, the words that put it off to later: "yet", "for now", "todavía", "aún". */
const putOff = /^\s+(?:[\p{L}`]+\s+){0,2}?(?:yet|for now|todav[ií]a|a[uú]n)(?![\p{L}])/iu

/** Where a sentence ends: its punctuation before a space, or a line end. */
const sentenceEnd = /[.!?](?=\s)|\n/

/** A clause that ends in another task as the subject of "commits" ("then Task 5 commits", "the final task commits"). */
const otherTask = /\b(?:task\s+\d{1,3}(?:\.\d{1,3}){0,2}|(?:next|following|final|last|later)\s+task)\W{0,2}$/i

/** A task named in the text: `Task 3`, `Task 1.2`, or "the next task" / "the final task" / "a later task" (no number: later than any). */
const taskReference = String.raw`(?:task\s+(\d{1,3}(?:\.\d{1,3}){0,2})|(?:the\s+)?(?:next|following|final|last|later)\s+task)`

/**
 * The words that give a task's commit to one other task: "same commit as
 * Task 3", "commit together with Task 3", "commit after Task 3", "committed
 * in the next task", "do not commit until Task 4", "Task 6 commits …", "part
 * of Task 1.7's final commit", "lands in Task 2's commit". Said of a later
 * task, the commit comes after this task's checks.
 */
const commitGivenTo = [
  new RegExp(String.raw`\bsame\s+commit\s+as\s+(?:in\s+)?${taskReference}`, 'gi'),
  new RegExp(String.raw`\bcommit(?:s|ted)?\s+(?:[\w\x60'"-]+\s+){0,3}?(?:together\s+)?(?:with|alongside|after|in|by|until|at\s+the\s+end\s+of|as\s+part\s+of|into)\s+${taskReference}`, 'gi'),
  new RegExp(String.raw`${taskReference}\s+commits\b`, 'gi'),
  // What lands in another task's commit, not what happens there ("Push happens in Task 3's commit cluster").
  new RegExp(String.raw`\b(?:part\s+of|(?:lands?|landed|goes|go|included|committed|staged)\s+(?:in|into|with))\s+${taskReference}['’]s\s+(?:\w+\s+){0,2}commit\b(?![\w-]|\s+cluster)`, 'gi')
]

/**
 * The words that name the tasks one commit covers: "a single commit
 * covering both Task 1 and Task 2", "one commit for Tasks 2–4", "Commit the
 * changes of Tasks 4 and 5". The commit is made in the latest of them and
 * the task that says so.
 */
const commitCovers =
  /\b(?:(?:single|one|a|the|same)\s+commit\s+(?:covering|for|spanning|with|of)|commits?\s+(?:the\s+)?(?:changes|work|files|edits)\s+(?:of|from|for))\s+(?:both\s+)?tasks?\s+(\d{1,3}(?:\.\d{1,3}){0,2}(?:\s*(?:[,&+–-]|and|to)\s*(?:task\s+)?\d{1,3}(?:\.\d{1,3}){0,2}){1,5})/gi

/** A task's number: `Task 3` (`Task 1.2`) at the start of its `<name>`, else its place in the plan. */
function taskNumber(view: string, task: Element, index: number): number[] {
  const name = elementsNamed(task, 'name')[0]
  const numbered = name && /^\s*task\s+(\d{1,3}(?:\.\d{1,3}){0,2})/i.exec(view.slice(...name.contentRange))
  return numbered ? numbered[1].split('.').map(Number) : [index + 1]
}

/** Compares task numbers part by part (`1.10` after `1.9`). */
function compareNumbers(a: number[], b: number[]): number {
  for (let index = 0; index < Math.max(a.length, b.length); index++) {
    const difference = (a[index] ?? 0) - (b[index] ?? 0)
    if (difference !== 0) return difference
  }
  return 0
}

/** The task numbers a list names: `1 and 2`, `2, 3 and 4`, `2–4` (each number of a range). */
function listedNumbers(list: string): number[][] {
  const numbers: number[][] = []
  let range = false
  for (const token of list.matchAll(/\d{1,3}(?:\.\d{1,3}){0,2}|–|-|\bto\b/gi)) {
    if (!/\d/.test(token[0])) {
      range = true
      continue
    }
    const number = token[0].split('.').map(Number)
    const previous = numbers[numbers.length - 1]
    // A range of whole task numbers takes in those between (`2–4` is 2, 3, 4); bounded, as a list names a few tasks.
    if (range && previous?.length === 1 && number.length === 1) for (let between = previous[0] + 1; between < number[0] && between < previous[0] + 20; between++) numbers.push([between])
    numbers.push(number)
    range = false
  }
  return numbers
}

/**
 * The tasks whose commit the plan puts after their checks: one names a later
 * task for its commit (`commitGivenTo`), or a commit that covers several
 * tasks (`commitCovers`) is made in a later one. Read in each task's text
 * outside its checks, where the plan says how it commits.
 */
function laterCommits(view: string, tasks: Element[]): Set<Element> {
  const numbers = tasks.map((task, index) => taskNumber(view, task, index))
  const later = new Set<Element>()
  for (const [index, task] of tasks.entries()) {
    const text = task.children
      .filter((child) => !['verify', 'acceptance_criteria', 'automated'].includes(child.name))
      .map((child) => view.slice(...child.range))
      .join('\n')
    const own = numbers[index]
    const isLater = (reference: string | undefined) => reference === undefined || compareNumbers(reference.split('.').map(Number), own) > 0
    if (commitGivenTo.some((pattern) => [...text.matchAll(pattern)].some((match) => isLater(match[1])))) later.add(task)
    for (const match of text.matchAll(commitCovers)) {
      const covered = [own, ...listedNumbers(match[1])]
      const last = covered.reduce((latest, number) => (compareNumbers(number, latest) > 0 ? number : latest))
      for (const [other, number] of numbers.entries()) {
        if (covered.some((named) => compareNumbers(named, number) === 0) && compareNumbers(number, last) < 0) later.add(tasks[other])
      }
    }
  }
  return later
}

/** Where a clause ends: a sentence's or a clause's punctuation, a dash, a blank line, or a new line that opens a list item or heading. */
const clauseEnd = /[.;:!?,)](?=\s)|[—–]|\s-{1,2}(?=\s)|\n[ \t]*\n|\n(?=[ \t]*(?:[-*+]|#{1,6}|\d{1,3}[.)]|[a-z][.)])[ \t])/

/** The words that turn a commit down: "not", "no", "never", "without", "don't". */
const negation = /^(?:not|never|no|without)$|n['’]t$/i

/** Words that may come before a clause's first verb ("then commit", "and finally commit"). */
const connectives = new Set(['then', 'and', 'finally', 'also', 'now', 'next', 'lastly', 'please', 'immediately', 'afterwards', '+', '&'])

/** What makes a clause-initial "commit" a noun or a subject: a noun after it ("Commit message", "Commit SHA"), a verb ("Commit touches"), a sha. */
const commitAsNoun = /^[*_]{0,2}\s*(?:messages?|msg|sha|hash|history|log|ids?|model|range|count|subject|body|prefix|format|style|convention|hooks?|order|ordering|is|was|are|must|should|will|would|may|can|has|had|touches|contains|includes|lands|`?[0-9a-f]{7,40})\b/i

/**
 * Whether one mention of "commit" makes the commit: a command (`git commit`,
 * GSD's `gsd-sdk query commit`), "commits the …", "commit" opening its clause
 * (after a list marker, emphasis and connectives such as "then") or right
 * after "and"/"then", and not a noun there, or the message the commit is made
 * with ("Write the commit message …", a "Commit message: `x`" step).
 * `before` is the words of its clause before it.
 */
function commitVerb(command: boolean, thirdPerson: boolean, before: string[], after: string): boolean {
  if (command) return true
  if (thirdPerson) return /^\s+(?:the|it|them|this|these|those|all|both|everything|its|each|every|only)\b/i.test(after)
  const words = before.map((word) => word.replace(/[*_,]/g, '').toLowerCase()).filter((word) => word !== '')
  const verb = words.filter((word) => !['the', 'a', 'an', 'this', 'its'].includes(word)).at(-1) ?? ''
  if (/^\s+message\b/i.test(after) && ['write', 'use', 'compose', 'draft', 'construct'].includes(verb)) return true
  const opens = words.filter((word, index) => index > 0 || !/^(?:[-+]|#{1,6}|\d{1,3}[.)]|[a-z][.)])$/.test(word)).every((word) => connectives.has(word))
  return (opens || ['and', 'then', '+', '&'].includes(words.at(-1) ?? '')) && (/^\s+message:\s*[`"'\w]/i.test(after) || !commitAsNoun.test(after))
}

/** Where a segment sits in its zone's `&&` chain: the `git` commands that fail the chain first, or another of the task's checks. */
interface Chain {
  /** The text of the guarding `git` stages: the task's checks', then the chain's so far; undefined when none. */
  guard: string | undefined
  /** The task's checks pin `HEAD` to its commit (`pinsHead`). */
  pinned: boolean
}

/** The traps in one `&&`/`||` segment of a check. */
function trapsIn(segment: string, pipelines: GitPipeline[], swallowed: Set<GitPipeline>, committed: boolean, chain: Chain, everyGit: boolean): TrapIn[] {
  const traps: TrapIn[] = []
  const calls = grepCalls(segment)
  if (calls.some((call) => countsMatches(call.options))) {
    // A number in the text a grep looks for (`grep -c "LIMIT = 5" f`) is not the count it expects; quotes count as the pattern's.
    const inPattern = (index: number, length: number) =>
      calls.some((call) => index < call.patternEnd + 1 && index + length > call.patternStart - 1)
    const current = currentCounts(segment)
    const exact = exactCounts(segment).find(
      (candidate) =>
        candidate.count >= 2 &&
        !inPattern(candidate.index, candidate.length) &&
        !lowerBound.test(segment.slice(candidate.index + candidate.length, candidate.index + candidate.length + 24)) &&
        // A number before any counting grep is prose ("keeps `MAX = 50`"), not its comparison.
        countOf(calls, candidate.index) !== undefined &&
        !keepsBaseline.test(segment.slice(candidate.index + candidate.length, candidate.index + candidate.length + 80)) &&
        !current.includes(candidate.count) &&
        !boundedBefore(segment, countOf(calls, candidate.index), candidate.index) &&
        !linesAreMatches(countOf(calls, candidate.index), candidate.count)
    )
    if (exact) {
      const call = countOf(calls, exact.index)
      traps.push({
        trap: 'R1',
        ...exact,
        cause: `R1 ${call?.pattern} ${call ? grepTarget(call, (token) => !token.startsWith('-')) : ''} ${exact.count}`,
        message: `An exact count out of \`grep -c\` (${exact.count}) can be false before any work starts: \`grep -c\` counts lines, not matches; use \`>= 1\`, \`== 0\`, or \`grep -n\` and read the line numbers`
      })
    }
  }
  const variable = /^(?:[-*]\s*)?`?(\$[A-Z_][A-Z0-9_]*)\s/.exec(segment)
  if (variable) {
    traps.push({
      trap: 'R3',
      index: variable.index + variable[0].indexOf('$'),
      length: variable[1].length,
      cause: `R3 ${variable[1]}`,
      message: `\`${variable[1]}\` unquoted in command position: zsh does not split it into words, so the shell looks for a command named by the whole expansion, exits 127, and a check of its status passes without testing anything; write the command out, or use a shell function`
    })
  }
  // One R4 per segment, at its first reported `git`: each stage read once, for the decision and the message both.
  for (const git of pipelines) {
    if (!swallowed.has(git)) continue
    const stage = segment.slice(git.index, git.stageEnd).trimEnd()
    // Its remote refs, found once: the guard before it covers them all, or they are what can be missing.
    const refs = remoteRefs(stage)
    if (chain.guard !== undefined && refs.every((ref) => chain.guard!.includes(ref))) continue
    const {command, failure, elsewhere} = gitFailure(stage, refs)
    // Judged on held-out plans, a `git` failing in the plan's own checkout was a remote risk; a missing remote ref or folder is not.
    if (!everyGit && elsewhere !== true) continue
    traps.push({
      trap: 'R4',
      index: git.index,
      length: stage.length,
      cause: `R4 ${stage.replace(/\s+/g, ' ')}`,
      message: `\`${command}\` before a pipe: ${failure}, \`git\` exits 128 and prints nothing, and the check passes, since a pipeline's status is its last command's; capture \`git\`'s status first`,
      severity: 'warning',
      gsd: /^git\s+[a-z]/.test(stage)
    })
    break
  }
  if (/\bwc\b/.test(segment) && lineComparisons(segment).length > 0) {
    const wc = /\bwc\b/.exec(segment)!
    traps.push({
      trap: 'R5',
      index: wc.index,
      length: 2,
      cause: `R5 ${segment.replace(/\s+/g, ' ')}`,
      message: '`wc` output compared as a string can never match on BSD `wc`, which pads the number with spaces; compare numerically (`test "$n" -eq 0`) or strip the spaces first'
    })
  }
  // Once `HEAD` is this task's own commit (its checks pin it, or its action commits before them), `HEAD~1` is that commit's parent, as the plan means.
  const ownCommit = chain.pinned || committed
  const relative = relativeRevision(segment, ownCommit)
  if (relative) {
    const text = segment.slice(relative.index, relative.index + relative.length)
    traps.push({
      trap: 'R6',
      index: relative.index,
      length: relative.length,
      cause: `R6 ${text.replace(/\s+/g, ' ')}`,
      gsd: /^git\s+(?:diff|log)\b/.test(text),
      message: ownCommit
        ? `\`${relative.revision}\` counts back from the last commit: past this task's own commit it names whatever landed before it, another session's commit too; pin an explicit range (\`<sha>^..<sha>\`)`
        : `\`${relative.revision}\` counts back from the last commit, and a task's checks run before its own commit: the range then starts before the commit that landed last (another task's or another session's) and takes in its changes; pin the task's base (\`<sha>\`), or commit in the action before the check`
    })
  } else {
    const diff = gitDiff.exec(segment)
    const rest = diff?.[1].trim()
    // A placeholder (`git diff <pre-task-sha> -- f`) names a revision.
    const placeholder = diff !== null && /^<[\w.-]+>/.test(segment.slice(diff.index + diff[0].length))
    const bare = diff !== null && !placeholder && (rest === '' || /^-{1,2}[A-Za-z-]+$/.test(rest!))
    // Untracked files are in no `git diff` but a staged one: a file the task creates never shows, before or after the commit.
    const untracked = bare && !/^--(?:cached|staged)$/.test(rest!) && noFileCreated.test(segment)
    // A task's checks run before its commit, so a bare `git diff` sees its change, unless its action commits first.
    if (bare && (untracked || committed)) {
      const text = diff[0].trimEnd()
      // Piped into a grep that must match, the empty diff fails the check instead.
      const piped = pipelines.find((git) => git.index === diff.index)
      traps.push({
        trap: 'R6',
        index: diff.index,
        length: text.length,
        cause: `R6 ${untracked ? 'untracked ' : ''}${text.replace(/\s+/g, ' ')}`,
        gsd: /^git\s+diff\b/.test(text),
        message: untracked
          ? '`git diff` never lists an untracked file, so a file the task creates does not show in it, committed or not, and this check cannot fail; list new files with `git status --porcelain` or `git ls-files --others --exclude-standard`'
          : `A bare \`git diff\` shows nothing for a committed change, so this check ${piped && pipesIntoMatch(segment, piped, swallowed) ? 'fails once the change is committed, whatever the change' : 'passes without testing it'}; pin a range (\`<sha>^..<sha>\`), unless it is meant to check the uncommitted tree`,
        severity: 'warning'
      })
    }
  }
  return traps
}

/**
 * A criterion that says no file was created or added ("No test files
 * created", "adds no new files", "no untracked files"): a `git diff` read
 * for it cannot see one.
 */
const noFileCreated =
  /\bno\s+(?:new\s+|untracked\s+)?(?:[\w*.-]+\s+){0,2}?files?\s+(?:(?:is|are|was|were|gets?|got|been|being)\s+){0,2}(?:created|added)\b|\b(?:creates?|adds?)\s+no\s+(?:new\s+)?(?:[\w*.-]+\s+)?files?\b|\bno\s+(?:new|untracked)\s+(?:[\w*.-]+\s+)?files?\b|\b(?:does|do|did|must|should)\s*(?:not|n['’]t)\s+(?:create|add)\s+(?:any\s+)?(?:new\s+)?(?:[\w*.-]+\s+)?files?\b/i

/**
 * Acceptance criteria that are traps before any work starts (GSD 1.14's
 * quantitative-criteria check, #4024): a check that is false at the start
 * whatever the executor does, or true whatever it does.
 */
export default defineRule<Options>({
  id: 'criteria-traps',
  description: 'A check in `<verify>` or `<acceptance_criteria>` is not a trap: false before any work, or true whatever the work does.',
  severity: 'error',
  kinds: ['plan'],
  defaultOptions: {traps: ['R1', 'R2', 'R3', 'R4', 'R5', 'R6'], gitPipeFailures: false},
  check({document, options, report}) {
    const view = shellView(document.text)
    const allowed = allowedTraps(view)
    const zones = criteriaZones(document)
    const pinned = new Set(zones.filter(({element}) => pinsHead(view.slice(...element.contentRange))).map(({element}) => taskOf(element)))
    // A task whose plan puts its commit after its checks checks the uncommitted tree on purpose.
    const later = laterCommits(view, document.tasks)
    const committing = new Set(
      zones
        .map(({element}) => taskOf(element))
        .filter((task) => !later.has(task) && elementsNamed(task, 'action').some((action) => commitsInAction(view.slice(...action.contentRange))))
    )
    // All of a task's checks must pass: a `git` that fails its own check when `git` fails covers the task's other checks on that repository.
    const taskGuards = new Map<Element, string>()
    // Each zone's segments, their `git` pipelines and guard, read once for both passes.
    const read = zones.map(({element}) =>
      shellSegments(view.slice(...element.contentRange), element.contentRange[0]).map((segment) => {
        const pipelines = gitPipelines(segment.text)
        const wantsNothing = wantsNothingAt(segment.text)
        const swallowed = swallowedGits(segment.text, pipelines, wantsNothing)
        const guard = guardingGit(segment.text, pipelines, swallowed, wantsNothing)
        const guardText = guard ? segment.text.slice(guard.index, guard.stageEnd) : undefined
        if (guardText) taskGuards.set(taskOf(element), `${taskGuards.get(taskOf(element)) ?? ''} ${guardText}`)
        return {segment, pipelines, swallowed, guardText}
      })
    )
    const found: Found[] = []
    for (const [zoneIndex, {element, prose}] of zones.entries()) {
      const [start, end] = element.contentRange
      const zone = view.slice(start, end)
      if (prose) {
        for (const pattern of bulkRed) {
          const match = pattern.exec(zone)
          if (!match) continue
          found.push({
            trap: 'R2',
            range: [start + match.index, start + match.index + match[0].length],
            cause: `R2 ${match[0].replace(/\s+/g, ' ')}`,
            message: 'A claim that all N tests were observed failing cannot hold when a test asserts that something does not change: such a test cannot fail before the change; say that each test discriminates (fails before the change, passes after)'
          })
          break
        }
      }
      const task = taskOf(element)
      const committed = committing.has(task)
      const chain: Chain = {guard: taskGuards.get(task), pinned: pinned.has(task)}
      let previousEnd: number | undefined
      for (const {segment, pipelines, swallowed, guardText} of read[zoneIndex]) {
        // A segment after `&&` runs only when the ones before it passed; a new line starts a new chain.
        if (previousEnd === undefined || view.slice(previousEnd, segment.start).trim() !== '&&') chain.guard = taskGuards.get(task)
        previousEnd = segment.start + segment.text.length
        for (const trap of trapsIn(segment.text, pipelines, swallowed, committed, chain, options.gitPipeFailures)) {
          found.push({...trap, range: [segment.start + trap.index, segment.start + trap.index + trap.length]})
        }
        if (guardText) chain.guard = `${chain.guard ?? ''} ${guardText}`
      }
    }
    // One message per cause, at its first place, naming the other lines; one per trap and line.
    const causes = new Map<string, {trap: Found; lines: number[]}>()
    const seen = new Set<string>()
    for (const trap of found.sort((a, b) => a.range[0] - b.range[0])) {
      const line = lineOf(document, trap.range[0])
      if (allowed.has(trap.trap) || !options.traps.includes(trap.trap) || seen.has(`${trap.trap}:${line}`)) continue
      seen.add(`${trap.trap}:${line}`)
      const known = causes.get(trap.cause)
      if (known) known.lines.push(line)
      else causes.set(trap.cause, {trap, lines: []})
    }
    for (const {trap, lines} of causes.values()) {
      const others = lines.length > 0 ? `; the same ${trap.trap === 'R2' ? 'claim' : 'command'} is on line${lines.length > 1 ? 's' : ''} ${andList(lines.map(String))}` : ''
      // Where GSD's own `verify plan-structure` reports the shape too, the author's workflow stops on it, not only planlint.
      const gsd = trap.gsd === false ? ` (GSD plan-criteria ${trap.trap})` : `; GSD's \`verify plan-structure\` ${trap.severity === 'warning' ? 'warns on' : 'rejects'} it too (plan-criteria ${trap.trap})`
      report({message: `${trap.message}${others}${gsd}`, range: trap.range, ...(trap.severity ? {severity: trap.severity} : {})})
    }
  }
})

/**
 * `git` and its global options before the subcommand (`git -C app diff`,
 * `git --no-pager log`): at most four, so that each `git` reads a bounded
 * number of words and a run of `git -C git -C …` stays linear.
 */
const gitCommand = String.raw`\bgit(?:\s+(?:-[Cc]\s+\S+|--no-pager|--(?:git-dir|work-tree)=\S+)){0,4}\s+`
const gitDiffOrLog = new RegExp(String.raw`${gitCommand}(?:diff|log)\b`)
/** A `git diff` and what follows it up to the end of its stage. */
const gitDiff = new RegExp(String.raw`${gitCommand}diff\b([^\x60\n|;&<>]*)`)

/**
 * The first `git diff`/`git log` whose pipe stage goes on to name `HEAD~N`,
 * with the revision it names; with `parentKnown` (`HEAD` is the task's own
 * commit), a stage that names only `HEAD~1` is passed over. Stage by stage (a
 * stage ends at a pipe, a chain operator, `;` or a code span's backtick), so
 * the search stays linear.
 */
function relativeRevision(segment: string, parentKnown: boolean): {index: number; length: number; revision: string} | undefined {
  let start = 0
  for (const stage of segment.split(/[\n|;&`]/)) {
    const git = gitDiffOrLog.exec(stage)
    if (git) {
      const revisions = [...stage.slice(git.index + git[0].length).matchAll(/\bHEAD~(\d+)/g)]
      const reported = parentKnown ? revisions.find((revision) => revision[1] !== '1') : revisions[0]
      if (reported) {
        const end = git.index + git[0].length + reported.index + reported[0].length
        return {index: start + git.index, length: end - git.index, revision: reported[0]}
      }
    }
    start += stage.length + 1
  }
  return undefined
}
