import type {PlanGraph, PlanNode} from '../src/graph/graph.js'
import {settledWave} from '../src/graph/waves.js'
import {filesModified, normalizePath} from '../src/plan.js'
import {defineRule} from '../src/rule.js'

/** Plans in the order the planner numbers them (`01-02` before `01-10`). */
const byName = (a: PlanNode, b: PlanNode) => a.name.localeCompare(b.name, 'en', {numeric: true})

/** Whether either plan's `coupling_justified` has an entry naming the other. */
function coupled(plans: PlanGraph, a: PlanNode, b: PlanNode): boolean {
  const names = (from: PlanNode, to: PlanNode) =>
    (from.coupledWith ?? []).some((id) => {
      const resolution = plans.resolve(from, id)
      return resolution.status === 'resolved' && resolution.target === to
    })
  return names(a, b) || names(b, a)
}

/** Whether `from` waits for `to`, directly or through other plans of its phase. */
function waitsFor(plans: PlanGraph, from: PlanNode, to: PlanNode): boolean {
  const seen = new Set<PlanNode>([from])
  const pending = [from]
  for (let plan = pending.pop(); plan; plan = pending.pop()) {
    for (const {target} of plans.edges(plan)) {
      if (target === to) return true
      if (target.directory !== from.directory || seen.has(target)) continue
      seen.add(target)
      pending.push(target)
    }
  }
  return false
}

/** Whether one plan waits for the other: then their equal waves are `wave-order`'s finding, not this rule's. */
function ordered(plans: PlanGraph, a: PlanNode, b: PlanNode): boolean {
  return waitsFor(plans, a, b) || waitsFor(plans, b, a)
}

/** Whether `.planning/config.json` turns plan-level parallel execution off (`parallelization: false`, `{enabled: false}` or `{plan_level: false}`). */
function runsPlansInParallel(data: Record<string, unknown>): boolean {
  const setting = data.parallelization
  if (setting === false) return false
  if (setting && typeof setting === 'object') {
    const {enabled, plan_level: planLevel} = setting as Record<string, unknown>
    return enabled !== false && planLevel !== false
  }
  return true
}

/**
 * Plans of one wave run at once, each in its own worktree, so two of them
 * that list the same file in `files_modified` or `files_deleted` edit it at
 * once and their merges collide. The GSD planner: "Same-wave plans must have
 * zero `files_modified`/`files_deleted` overlap". Paths are compared as the
 * executor's guard compares them: exactly, after `./` and backslashes.
 * A plan still to run is compared only with plans still to run: one that has
 * run (or is superseded) runs beside nothing again. Plans that have run are
 * compared with each other, for `--include-executed`'s audit of a tree's history.
 */
export default defineRule({
  id: 'wave-file-overlap',
  description: 'Two plans of one phase and wave do not list the same file in `files_modified` or `files_deleted`.',
  severity: 'warning',
  kinds: ['plan'],
  defaultOptions: {},
  check({document, graph, config, report}) {
    const plans = graph()
    const node = plans.planAt(document.path)
    if (!node?.files || node.wave === undefined || node.superseded || !runsPlansInParallel(config().data)) return
    const wave = node.wave
    const settled = settledWave(plans, node)
    // A plan still to run is compared with the plans still to run; one that has run, with those that ran (`--include-executed`).
    const state = plans.executionState(node)
    const peers = plans
      .inDirectory(node.directory)
      .filter((other) => other !== node && !other.summaryOnly && other.wave === wave && other.files && plans.executionState(other) === state)
      // Gap-closure plans are written after the phase ran and run on their own (`execute-phase --gaps-only`).
      .filter((other) => other.gapClosure === node.gapClosure)
      .filter((other) => !coupled(plans, node, other) && !ordered(plans, node, other))
      // Plans that `wave-order`'s fixes put in different waves: the one cause is the wrong wave, reported there.
      .filter((other) => settled !== undefined && settledWave(plans, other) === settled)
      .sort(byName)
    if (peers.length === 0) return
    const listing = (file: string) => peers.filter((other) => other.files!.some((listed) => normalizePath(listed) === file))
    // One collision with one repair, however many files the plans share: one message, at the first shared entry.
    const shared = [...filesModified(document), ...filesModified(document, 'files_deleted')]
      .map((entry) => ({entry, others: listing(normalizePath(entry.path))}))
      .filter(({others}) => others.length > 0)
    if (shared.length === 0) return
    const others = peers.filter((other) => shared.some((overlap) => overlap.others.includes(other)))
    const names = others.map((other) => `\`${other.name}\``).join(', ')
    const later = others.filter((other) => byName(other, node) > 0)
    const advice =
      later.length === others.length
        ? `move ${names} to wave ${wave + 1} with \`depends_on\` on this plan`
        : `move this plan to wave ${wave + 1} with \`depends_on: [${others.filter((other) => !later.includes(other)).map((other) => other.name).join(', ')}]\``
    const [first, ...rest] = shared.map(({entry}) => entry)
    const files = rest.length === 0
      ? `\`${first.path}\` is`
      : `\`${first.path}\` and ${rest.length} more file${rest.length > 1 ? 's' : ''} (${rest.map((entry) => `\`${entry.path}\``).join(', ')}) are`
    report({
      message: `${files} also listed by ${names}, in the same wave (${wave}): parallel plans would edit ${rest.length === 0 ? 'it' : 'them'} at once; ${advice}, or name the pair in \`coupling_justified\` if their order does not matter`,
      range: first.range
    })
  }
})
