import {elementsNamed, lineOf} from '../src/plan.js'
import {defineRule} from '../src/rule.js'
import {allowListed, comparesWithZero, countsMatches, grepCalls, invertsMatch, negativeGrepCommands, shellSegments, shellView, type GrepCall} from '../src/shell.js'
import type {Range} from '../src/model/text.js'

/** A `! grep` at a command boundary: the check passes only when nothing matches. */
const negatedGrep = /(?:^|[;(`]|\bthen|\bdo)\s*!\s*(?=grep\s+-)/

/** A grep pattern that matches comment lines: a comment opener anchored at the line start, after optional blanks. */
const commentLines = /^\^(?:\\s\*|\[\[:space:\]\]\*|\[ \\t\]\*| \*)?\(?(?:\/\/|#|\\\*|\/\\\*|--)/

/** Whether a segment's pipeline drops comment lines (`grep -v '^//' f | grep -c 'X'`), so an echo in a comment cannot trip it. */
function dropsComments(segment: string): boolean {
  return grepCalls(segment).some((call) => invertsMatch(call.options) && commentLines.test(call.pattern))
}

/**
 * The greps of a segment that must find nothing: counting ones compared with
 * zero (`grep -c 'X' f == 0`, not inverted with `-v`), or a negated one
 * (`! grep -q 'X' f`, whose `-v` would also invert it).
 */
function negativeGreps(segment: string): {calls: GrepCall[]; form: string} {
  if (/grep\s+-/.test(segment) && comparesWithZero(segment)) {
    // Each count with its own comparison: "`grep -c 'A' f` returns 0; `grep -c 'B' f` returns 1" bans only A.
    const counting = grepCalls(segment).filter((call) => countsMatches(call.options) && !invertsMatch(call.options) && comparesWithZero(call.command))
    if (counting.length > 0) return {calls: counting, form: 'grep -c … == 0'}
  }
  const negation = negatedGrep.exec(segment)
  const first = negation ? grepCalls(segment.slice(negation.index + negation[0].length))[0] : undefined
  return {calls: first && !invertsMatch(first.options) ? [first] : [], form: '! grep …'}
}

/**
 * A literal that a check negative-greps for (`grep -c 'X' file == 0`) must
 * not appear in an `<action>`: the executor copies action text into code
 * comments, and the check then fails on the comment, not on a regression.
 * The rule follows GSD's own plan-structure check (#429), and reads the
 * `! grep -q 'X' f` form of the same gate too.
 */
export default defineRule({
  id: 'negative-grep-echo',
  description: 'A literal that a check negative-greps for does not appear in an `<action>`.',
  severity: 'warning',
  kinds: ['plan'],
  defaultOptions: {},
  check({document, report}) {
    const view = shellView(document.text)
    const allowed = allowListed(view, 'planner-discipline-allow')
    const bodyStart = document.frontmatter?.range[1] ?? 0
    const gates = new Map<string, {quoted: boolean; line: number; form: string}>()
    for (const segment of shellSegments(view.slice(bodyStart), bodyStart)) {
      const {calls, form} = negativeGreps(segment.text)
      if (calls.length > 0 && dropsComments(segment.text)) continue
      // An unquoted word is only a candidate when the segment has no quoted pattern (GSD's rule).
      const quoted = calls.some((call) => call.quoted)
      for (const call of calls) {
        // A quoted gate of the literal wins over an unquoted one met before it: the literal's extent is then known.
        if (call.quoted !== quoted || !call.pattern || allowed.has(call.pattern) || (gates.has(call.pattern) && (!quoted || gates.get(call.pattern)?.quoted))) continue
        gates.set(call.pattern, {quoted, line: lineOf(document, segment.start), form})
      }
    }
    if (gates.size === 0) return
    const actions = document.tasks.flatMap((task) => elementsNamed(task, 'action'))
    const zones = actions.map((action) => {
      const [start, end] = action.contentRange
      // A negative grep command pasted into the action is not an echo of its own literal.
      const excluded: Range[] = negativeGrepCommands(view.slice(start, end)).map(([from, to]) => [start + from, start + to])
      return {start, end, excluded}
    })
    for (const [literal, gate] of gates) {
      const echo = firstEcho(view, literal, zones)
      if (echo === undefined) continue
      const range: Range = [echo, echo + literal.length]
      if (gate.quoted) {
        report({
          message: `\`${literal}\` is negative-grepped by a check on line ${gate.line} (\`${gate.form}\`) but this \`<action>\` says it: the executor may copy it into a comment and fail its own check; rephrase it by concept, or add \`<!-- planner-discipline-allow: ${literal} -->\` if it must appear`,
          range,
          severity: 'error'
        })
      } else {
        report({
          message: `\`${literal}\` may be negative-grepped by the check on line ${gate.line}, and this \`<action>\` says it: quote the grep pattern so the literal is unambiguous, and rephrase the action or add \`<!-- planner-discipline-allow: ${literal} -->\``,
          range
        })
      }
    }
  }
})

/** The first place `literal` occurs in an action, outside pasted negative-grep commands. */
function firstEcho(view: string, literal: string, zones: Array<{start: number; end: number; excluded: Range[]}>): number | undefined {
  for (const zone of zones) {
    for (let at = view.indexOf(literal, zone.start); at !== -1 && at + literal.length <= zone.end; at = view.indexOf(literal, at + 1)) {
      if (!zone.excluded.some(([start, end]) => at >= start && at < end)) return at
    }
  }
  return undefined
}
