import type {PlanDocument} from '../src/model/document.js'
import type {Element} from '../src/model/markup.js'
import type {Range} from '../src/model/text.js'
import {elementsNamed, lineOf, taskOf} from '../src/plan.js'
import {defineRule, type Severity} from '../src/rule.js'
import {allowListed, countsMatches, grepCalls, hasOption, shellSegments, shellView, type GrepCall} from '../src/shell.js'
import {countUpTo} from '../src/sorted.js'

type Trap = 'R1' | 'R2' | 'R3' | 'R4' | 'R5' | 'R6'

interface Found {
  trap: Trap
  range: Range
  message: string
  severity?: Severity
}

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

/** The numbers a `grep -x N` / `grep --line-regexp N` compares whole lines with, as strings. */
function lineComparisons(segment: string): string[] {
  const numbers: string[] = []
  for (const match of segment.matchAll(/\bgrep\s+(-{1,2}[A-Za-z-]{1,40})\s+['"]?(\d+)/g)) {
    const option = match[1]
    if (option === '--line-regexp' || (/^-[A-Za-z]+$/.test(option) && option.includes('x'))) numbers.push(match[2])
  }
  return numbers
}

/** Words after a count that make it a lower bound: "= 4 minimum", "= 4 or more", "= 4+". */
const lowerBound = /^(?:\+|\s*\(?(?:min(?:imum)?\b|or more\b|or greater\b|at least\b))/i

/**
 * Words after a count that say it was measured as it stands ("= 4 (unchanged
 * from the baseline)"): a count of lines read off the same grep, not a guess
 * at matches.
 */
const keepsBaseline = /^[^\n]*?\b(?:unchanged|baseline|as before|same as before)\b/i

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
 * `'^[[:space:]]*@Test'`), or it
 * is an alternation of `count` distinct alternatives, each named line once
 * (`'def test_a|def test_b'` == 2).
 */
function linesAreMatches(call: GrepCall | undefined, count: number): boolean {
  if (!call) return false
  if (hasOption(call.options, 'x') || /--line-regexp\b/.test(call.options)) return true
  const pattern = call.pattern
  // A line has one start: a pattern anchored there matches at most once per line.
  if (pattern.startsWith('^')) return true
  const extended = hasOption(call.options, 'E') || hasOption(call.options, 'P') || /--extended-regexp\b|--perl-regexp\b/.test(call.options)
  const alternatives = topLevelAlternatives(pattern, extended ? '|' : '\\|')
  return alternatives.length === count && new Set(alternatives).size === count && alternatives.every((alternative) => /\w/.test(alternative))
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

/** Commands that succeed on any input, so a pipeline ending in one reports success whatever came before. */
const alwaysSucceeds = /^`?(?:wc|head|tail|sort|uniq|cat|tee|cut|tr|awk|sed)\b/

/**
 * Whether a failing `git` before the pipe at `pipe` reads as a pass: the check
 * wants nothing (`| wc -l | grep -x 0`, `== 0`, "no output"), negates the
 * pipeline, or is a command (`commandZone`) whose status is the pipeline's and
 * whose last stage succeeds on any input. Output read or captured in `$(…)`
 * and compared with something else fails when `git` does, as it should.
 */
function swallowsGitFailure(segment: string, gitIndex: number, pipe: number, commandZone: boolean): boolean {
  const before = segment.slice(0, gitIndex)
  const after = segment.slice(pipe + 1)
  if (/!\s*`?$/.test(before)) return true
  if (lineComparisons(after).includes('0') || /(?:==?|-eq)\s*0(?!\d)|\bno (?:output|match|matches|lines?|results?)\b|\bis empty\b|\bnothing\b/i.test(after)) return true
  if (!commandZone || before.lastIndexOf('$(') > before.lastIndexOf(')')) return false
  const stages = after.split(/[|;]/)
  return alwaysSucceeds.test(stages[stages.length - 1].trim())
}

/** The traps in one `&&`/`||` segment of a check. */
function trapsIn(segment: string, commandZone: boolean, committed: boolean): Array<Omit<Found, 'range'> & {index: number; length: number}> {
  const traps: Array<Omit<Found, 'range'> & {index: number; length: number}> = []
  const calls = grepCalls(segment)
  if (calls.some((call) => countsMatches(call.options))) {
    // A number in the text a grep looks for (`grep -c "LIMIT = 5" f`) is not the count it expects; quotes count as the pattern's.
    const inPattern = (index: number, length: number) =>
      calls.some((call) => index < call.patternEnd + 1 && index + length > call.patternStart - 1)
    const exact = exactCounts(segment).find(
      (candidate) =>
        candidate.count >= 2 &&
        !inPattern(candidate.index, candidate.length) &&
        !lowerBound.test(segment.slice(candidate.index + candidate.length, candidate.index + candidate.length + 24)) &&
        !keepsBaseline.test(segment.slice(candidate.index + candidate.length, candidate.index + candidate.length + 80)) &&
        !boundedBefore(segment, countOf(calls, candidate.index), candidate.index) &&
        !linesAreMatches(countOf(calls, candidate.index), candidate.count)
    )
    if (exact) {
      traps.push({
        trap: 'R1',
        ...exact,
        message: `An exact count out of \`grep -c\` (${exact.count}) can be false before any work starts: \`grep -c\` counts lines, not matches; use \`>= 1\`, \`== 0\`, or \`grep -n\` and read the line numbers (GSD plan-criteria R1)`
      })
    }
  }
  const variable = /^(?:[-*]\s*)?`?(\$[A-Z_][A-Z0-9_]*)\s/.exec(segment)
  if (variable) {
    traps.push({
      trap: 'R3',
      index: variable.index + variable[0].indexOf('$'),
      length: variable[1].length,
      message: `\`${variable[1]}\` unquoted in command position: zsh does not split it into words, so the shell looks for a command named by the whole expansion, exits 127, and a check of its status passes without testing anything; write the command out, or use a shell function (GSD plan-criteria R3)`
    })
  }
  // The first `git` and the first `|` after it (a segment is one line): `/git\s+[a-z][^|]*\|/` would rescan the line per `git`.
  const git = /\bgit\s+[a-z]/.exec(segment)
  const pipe = git ? segment.indexOf('|', git.index) : -1
  const pipedGit = git && pipe !== -1 ? {index: git.index, 0: segment.slice(git.index, pipe + 1)} : undefined
  if (pipedGit && swallowsGitFailure(segment, pipedGit.index, pipe, commandZone)) {
    traps.push({
      trap: 'R4',
      index: pipedGit.index,
      length: pipedGit[0].slice(0, -1).trimEnd().length,
      message: 'A `git` command before a pipe: the pipeline reports the last command\'s status, so a failing `git` reads as clean; capture its status first (GSD plan-criteria R4)',
      severity: 'warning'
    })
  }
  if (/\bwc\b/.test(segment) && lineComparisons(segment).length > 0) {
    const wc = /\bwc\b/.exec(segment)!
    traps.push({
      trap: 'R5',
      index: wc.index,
      length: 2,
      message: '`wc` output compared as a string can never match on BSD `wc`, which pads the number with spaces; compare numerically (`test "$n" -eq 0`) or strip the spaces first (GSD plan-criteria R5)'
    })
  }
  const relative = relativeRevision(segment)
  if (relative) {
    traps.push({
      trap: 'R6',
      index: relative.index,
      length: relative.length,
      message: '`HEAD~N` names whatever commit landed last, in a repository where other sessions commit too; pin an explicit range (`<sha>^..<sha>`) (GSD plan-criteria R6)'
    })
  } else {
    const diff = /\bgit\s+diff\b([^`\n|;&<>]*)/.exec(segment)
    const rest = diff?.[1].trim()
    // A placeholder (`git diff <pre-task-sha> -- f`) names a revision.
    const placeholder = diff !== null && /^<[\w.-]+>/.test(segment.slice(diff.index + diff[0].length))
    // A task's checks run before its commit, so a bare `git diff` sees its change, unless its action commits first.
    if (diff && committed && !placeholder && (rest === '' || /^-{1,2}[A-Za-z-]+$/.test(rest!))) {
      traps.push({
        trap: 'R6',
        index: diff.index,
        length: diff[0].trimEnd().length,
        message: 'A bare `git diff` shows nothing for a committed change, so this check passes without testing it; pin a range (`<sha>^..<sha>`), unless it is meant to check the uncommitted tree (GSD plan-criteria R6)',
        severity: 'warning'
      })
    }
  }
  return traps
}

/**
 * Acceptance criteria that are traps before any work starts (GSD 1.14's
 * quantitative-criteria check, #4024): a check that is false at the start
 * whatever the executor does, or true whatever it does.
 */
export default defineRule({
  id: 'criteria-traps',
  description: 'A check in `<verify>` or `<acceptance_criteria>` is not a trap: false before any work, or true whatever the work does.',
  severity: 'error',
  kinds: ['plan'],
  defaultOptions: {},
  check({document, report}) {
    const view = shellView(document.text)
    const allowed = allowedTraps(view)
    for (const {element, prose} of criteriaZones(document)) {
      const [start, end] = element.contentRange
      const zone = view.slice(start, end)
      const reported = new Set<string>()
      const found: Found[] = []
      if (prose) {
        for (const pattern of bulkRed) {
          const match = pattern.exec(zone)
          if (!match) continue
          found.push({
            trap: 'R2',
            range: [start + match.index, start + match.index + match[0].length],
            message: 'A claim that all N tests were observed failing cannot hold when a test asserts that something does not change: such a test cannot fail before the change; say that each test discriminates (fails before the change, passes after) (GSD plan-criteria R2)'
          })
          break
        }
      }
      const committed = elementsNamed(taskOf(element), 'action').some((action) => /\bgit\s+commit\b/.test(view.slice(...action.contentRange)))
      for (const segment of shellSegments(zone, start)) {
        for (const trap of trapsIn(segment.text, !prose, committed)) {
          found.push({...trap, range: [segment.start + trap.index, segment.start + trap.index + trap.length]})
        }
      }
      for (const trap of found.sort((a, b) => a.range[0] - b.range[0])) {
        const key = `${trap.trap}:${lineOf(document, trap.range[0])}`
        if (allowed.has(trap.trap) || reported.has(key)) continue
        reported.add(key)
        report({message: trap.message, range: trap.range, ...(trap.severity ? {severity: trap.severity} : {})})
      }
    }
  }
})

/**
 * The first `git diff`/`git log` whose pipe stage goes on to name `HEAD~N`. Stage by stage,
 * so the search stays linear (one lazy pattern over the segment backtracked per `git`).
 */
function relativeRevision(segment: string): {index: number; length: number} | undefined {
  let start = 0
  for (const stage of segment.split(/[\n|;&]/)) {
    const git = /\bgit\s+(?:diff|log)\b/.exec(stage)
    const head = git ? /\bHEAD~\d+/g : undefined
    if (git && head) {
      head.lastIndex = git.index + git[0].length
      const found = head.exec(stage)
      if (found) return {index: start + git.index, length: found.index + found[0].length - git.index}
    }
    start += stage.length + 1
  }
  return undefined
}
