import type {Directive} from './model/directives.js'
import type {PlanDocument} from './model/document.js'
import type {Range} from './model/text.js'
import {countUpTo} from './sorted.js'

/** Which rule ids each directive has suppressed so far, per document (read by `planlint:suppression`). */
const usage = new WeakMap<PlanDocument, Map<Directive, Set<string>>>()

/**
 * The directives that act on one rule id, in source order, indexed for
 * lookups in logarithmic time: `disable`/`enable` by where they start acting,
 * and the scoped ones (`disable-next-line`, `lint ignore`) by scope start,
 * with a tree of their scope ends.
 */
interface RuleDirectives {
  toggles: Directive[]
  scoped: Directive[]
  /** A segment tree over `scoped`: the furthest scope end in each node's span. */
  furthestEnds: number[]
  size: number
}

const indexes = new WeakMap<PlanDocument, Map<string, RuleDirectives>>()

function indexOf(document: PlanDocument, ruleId: string): RuleDirectives {
  let byRule = indexes.get(document)
  if (!byRule) indexes.set(document, (byRule = new Map()))
  let index = byRule.get(ruleId)
  if (!index) {
    const named = document.directives.filter((directive) => directive.ruleIds.length === 0 || directive.ruleIds.some((entry) => entry.id === ruleId))
    // By where each starts acting (source order but for two comments on one line); toggles are in that order already.
    const scoped = named.filter((directive) => directive.kind !== 'disable' && directive.kind !== 'enable').sort((a, b) => a.scope[0] - b.scope[0])
    let size = 1
    while (size < scoped.length) size *= 2
    const furthestEnds = new Array<number>(2 * size).fill(-1)
    scoped.forEach((directive, position) => (furthestEnds[size + position] = directive.scope[1]))
    for (let node = size - 1; node > 0; node--) furthestEnds[node] = Math.max(furthestEnds[2 * node], furthestEnds[2 * node + 1])
    index = {toggles: named.filter((directive) => directive.kind === 'disable' || directive.kind === 'enable'), scoped, furthestEnds, size}
    byRule.set(ruleId, index)
  }
  return index
}

/** The first of `index.scoped[0..count)` whose scope reaches `offset`, by descending the tree of scope ends. */
function firstReaching(index: RuleDirectives, count: number, offset: number): Directive | undefined {
  const search = (node: number, from: number, to: number): number => {
    if (from >= count || index.furthestEnds[node] < offset) return -1
    if (to - from === 1) return from
    const middle = (from + to) >> 1
    const left = search(2 * node, from, middle)
    return left !== -1 ? left : search(2 * node + 1, middle, to)
  }
  const found = search(1, 0, index.size)
  return found === -1 ? undefined : index.scoped[found]
}

/**
 * The directive that suppresses a finding of `ruleId` at `range`, if any: the
 * last `disable`/`enable` for the rule before it decides (as in ESLint), and a
 * `disable-next-line` or `lint ignore` whose scope holds the finding's start
 * (the first such by where its scope starts).
 */
function suppressor(document: PlanDocument, ruleId: string, range: Range): Directive | undefined {
  const offset = range[0]
  const index = indexOf(document, ruleId)
  const scoped = firstReaching(index, countUpTo(index.scoped, (directive) => directive.scope[0], offset), offset)
  if (scoped) return scoped
  const state = index.toggles[countUpTo(index.toggles, (directive) => directive.scope[0], offset) - 1]
  return state?.kind === 'disable' ? state : undefined
}

/** Whether a finding is suppressed by an inline comment; records the use for the unused-directive check. */
export function isSuppressed(document: PlanDocument, ruleId: string, range: Range): boolean {
  const directive = suppressor(document, ruleId, range)
  if (!directive) return false
  let used = usage.get(document)
  if (!used) usage.set(document, (used = new Map()))
  if (!used.has(directive)) used.set(directive, new Set())
  used.get(directive)!.add(ruleId)
  return true
}

/** The rule ids a directive has suppressed messages of in this document. */
export function suppressedBy(document: PlanDocument, directive: Directive): ReadonlySet<string> {
  return usage.get(document)?.get(directive) ?? new Set()
}
