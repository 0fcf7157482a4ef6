import type {PlanGraph, PlanNode} from '../src/graph/graph.js'
import {byName, coupled, waitsFor} from '../src/graph/order.js'
import {separateWaves, settledWave, type Separation} from '../src/graph/waves.js'
import {filesModified, normalizePath} from '../src/plan.js'
import type {PlanDocument} from '../src/model/document.js'
import {defineRule} from '../src/rule.js'

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

/** `contendersIn` `node`'s folder and state, worked out once per graph: every plan of the folder asks. */
function contenders(plans: PlanGraph, node: PlanNode): Contenders {
  const state = plans.executionState(node)
  return plans.memo(`wave-file-overlap:contenders:${node.directory}\0${state}`, () => contendersIn(plans, node.directory, state))
}

interface Contenders {
  members: PlanNode[]
  /** Whether two of them may not share a wave. */
  conflict: (a: PlanNode, b: PlanNode) => boolean
  /** Whether two of them would, but `a`'s text says why their shared files are safe to share, and `a` is the one to be told to record it. */
  noted: (a: PlanNode, b: PlanNode) => boolean
}

/** The plans of a folder in one state that take part (a `wave`, `files`, a settled wave), and which pairs of them collide. */
function contendersIn(plans: PlanGraph, directory: string, state: ReturnType<PlanGraph['executionState']>): Contenders {
  const members = plans
    .inDirectory(directory)
    .filter((other) => !other.summaryOnly && !other.superseded && other.wave !== undefined && other.files && plans.executionState(other) === state && settledWave(plans, other) !== undefined)
  const files = new Map(members.map((member) => [member, new Set(member.files!.map(normalizePath))]))
  const shared = (a: PlanNode, b: PlanNode) => [...files.get(a)!].filter((file) => files.get(b)!.has(file))
  const collide = (a: PlanNode, b: PlanNode) =>
    a !== b &&
    shared(a, b).length > 0 &&
    // A plan written after the other ran (gap closure, or a plan that reads its summary) ran in a later round.
    !plans.writtenAfterRunOf(a, b) &&
    !plans.writtenAfterRunOf(b, a) &&
    !coupled(plans, a, b) &&
    !ordered(plans, a, b)
  const notes = (plan: PlanNode, file: string) => plan.notedShared?.includes(file) ?? false
  // Every shared file said to be safe by one of the two: the author has thought it through, in prose.
  const justifiedInProse = (a: PlanNode, b: PlanNode) => shared(a, b).every((file) => notes(a, file) || notes(b, file))
  const writesNote = (a: PlanNode, b: PlanNode) => shared(a, b).some((file) => notes(a, file))
  return {
    members,
    conflict: (a, b) => collide(a, b) && !justifiedInProse(a, b),
    // Told once, at the plan with the note: the first of the two when both have one.
    noted: (a, b) => collide(a, b) && justifiedInProse(a, b) && writesNote(a, b) && (!writesNote(b, a) || byName(a, b) < 0)
  }
}

/** Where the planner's "bump the later plan to the next wave and repeat" puts each contender of `node`'s folder and state, once per graph. */
function separations(plans: PlanGraph, node: PlanNode): Map<PlanNode, Separation> {
  return plans.memo(`wave-file-overlap:${node.directory}\0${plans.executionState(node)}`, () => {
    const {members, conflict} = contenders(plans, node)
    return separateWaves(members, (plan) => settledWave(plans, plan)!, conflict, byName)
  })
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
 * A pair whose shared files a plan's text says are safe to share is told
 * once, at that plan, to record the reason in `coupling_justified`, where GSD has it.
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
    if (settled === undefined) return
    // A plan still to run is compared with the plans still to run; one that has run, with those that ran (`--include-executed`).
    const {members, conflict, noted} = contenders(plans, node)
    // Plans that `wave-order`'s fixes put in different waves: the one cause is the wrong wave, reported there.
    const sameWave = members.filter((other) => other.wave === wave && settledWave(plans, other) === settled).sort(byName)
    const collision = overlapWith(document, sameWave.filter((other) => conflict(node, other)))
    if (collision) {
      const advice = moves(plans, node, collision.others, settled, wave)
      report({
        message: `${collision.files} also listed by ${collision.names}, in the same wave (${wave}): parallel plans would edit ${collision.them} at once; ${advice ?? 'put them in different waves with `depends_on` between them'}, or name the pair${collision.others.length > 1 ? 's' : ''} in \`coupling_justified\` if their order does not matter`,
        range: collision.range
      })
    }
    const justified = overlapWith(document, sameWave.filter((other) => noted(node, other)))
    if (justified) {
      const entries = justified.others.map((other) => `"${other.name}: …"`).join(', ')
      report({
        message: `${justified.files} also listed by ${justified.names}, in the same wave (${wave}), and this plan says why both may edit ${justified.them}; GSD records such a coupling in the frontmatter: move the reason to \`coupling_justified: [${entries}]\``,
        range: justified.range
      })
    }
  }
})

/**
 * The entries of the plan's `files_modified` and `files_deleted` that plans of
 * `others` list too, and those plans: one collision with one repair, however
 * many files they share, so one message, at the first shared entry, naming
 * every shared file. `undefined` when they share none.
 */
function overlapWith(document: PlanDocument, others: PlanNode[]) {
  const listing = (file: string) => others.filter((other) => other.files!.some((listed) => normalizePath(listed) === file))
  const shared = [...filesModified(document), ...filesModified(document, 'files_deleted')]
    .map((entry) => ({entry, others: listing(normalizePath(entry.path))}))
    .filter((overlap) => overlap.others.length > 0)
  if (shared.length === 0) return undefined
  const named = others.filter((other) => shared.some((overlap) => overlap.others.includes(other)))
  const [first, ...rest] = shared.map(({entry}) => entry)
  return {
    others: named,
    names: named.map((other) => `\`${other.name}\``).join(', '),
    files: rest.length === 0 ? `\`${first.path}\` is` : `\`${first.path}\` and ${rest.length} more file${rest.length > 1 ? 's' : ''} (${rest.map((entry) => `\`${entry.path}\``).join(', ')}) are`,
    them: rest.length === 0 ? 'it' : 'them',
    range: first.range
  }
}

/** The most plans one moved plan is told to wait for: beyond it, the advice would be a new order for the phase. */
const maxWaitedFor = 3

/**
 * The moves that separate `node` from `others`, as `separateWaves` plays
 * them out: `move this plan to wave 2 with \`depends_on: [02-01]\``; none
 * when one of them would stay in the wave (then no move of these plans alone
 * leaves them apart), or a moved plan would wait for more than
 * `maxWaitedFor`, or the plans named are not all as far from their settled
 * waves as this one. The waves are counted from the one the plans declare
 * (`wave`), which is `settled` once `wave-order`'s fixes are made.
 */
function moves(plans: PlanGraph, node: PlanNode, others: PlanNode[], settled: number, wave: number): string | undefined {
  const placed = separations(plans, node)
  const moved = [node, ...others].sort(byName).flatMap((plan) => {
    const separation = placed.get(plan)
    return separation && separation.wave !== settled ? [{plan, after: separation.after, wave: wave + separation.wave - settled}] : []
  })
  // Every pair is one plan that stays and one that moves, or two that move apart.
  const apart = others.every((other) => moved.some((move) => move.plan === other) || moved.some((move) => move.plan === node))
  // A move past several waves of plans that edit the same files is a reordering of the phase, not one edit: the planner's to redo.
  if (moved.length === 0 || !apart || moved.some((move) => move.after.length > maxWaitedFor)) return undefined
  // Waves are named as declared: only while every plan named is off by as much as this one (`wave-order` moves them all alike).
  const named = [node, ...others, ...moved.flatMap((move) => move.after)]
  if (named.some((plan) => plan.wave! - settledWave(plans, plan)! !== wave - settled)) return undefined
  if (moved.length === 1 && moved[0].plan !== node && moved[0].after.length === 1 && moved[0].after[0] === node) {
    return `move \`${moved[0].plan.name}\` to wave ${moved[0].wave} with \`depends_on\` on this plan`
  }
  const move = ({plan, wave, after}: (typeof moved)[number]) =>
    `${plan === node ? 'this plan' : `\`${plan.name}\``} to wave ${wave} with \`depends_on: [${[...after].sort(byName).map((other) => other.name).join(', ')}]\``
  return `move ${moved.map(move).join(' and ')}`
}
