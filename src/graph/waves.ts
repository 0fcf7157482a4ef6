import type {DependencyEntry, PlanGraph, PlanNode} from './graph.js'

/** A same-phase dependency of a plan: the entry as written and the plan it names. */
export interface PhaseDependency {
  text: string
  target: PlanNode
}

/** The wave `depends_on` places a plan in, and the dependency that places it there (none for a plan that waits for no plan of its phase). */
export interface ImpliedWave {
  wave: number
  latest?: PhaseDependency & {wave: number}
}

/**
 * The plans of its own phase folder that `node` waits for; `undefined` when
 * one of them cannot be known (it does not resolve, or only its summary is
 * left). Plans of other phases are done before the phase starts, so they
 * place nothing.
 */
function phaseDependencies(graph: PlanGraph, node: PlanNode): PhaseDependency[] | undefined {
  const found: PhaseDependency[] = []
  for (const entry of node.dependsOn) {
    const resolution = graph.resolve(node, entry.text)
    // `depends_on: [none]` means what `[]` means; `dependency-exists` says how to write it.
    if (resolution.status === 'missing' && resolution.nothing) continue
    if (resolution.status === 'resolved' && resolution.target.directory !== node.directory) continue
    // A superseded plan is never scheduled (GSD leaves it out of the index): nothing waits for it, and it places nothing.
    if (resolution.status === 'resolved' && resolution.target.superseded) continue
    if (resolution.status === 'completed' && resolution.summary.directory !== node.directory) continue
    if (resolution.status !== 'resolved') return undefined
    found.push({text: entry.text, target: resolution.target})
  }
  return found
}

/**
 * The wave the dependency graph of its phase places a plan in, the way the
 * workflow's index groups plans: the first wave for a plan that waits for no
 * plan of its phase, else one after the latest wave among those it waits
 * for, each of them placed the same way (not by the `wave` it declares) —
 * except a plan that has run, which ran in the wave it declares: that is a
 * fact the plans after it follow, not a number a fix moves; and, unless
 * `lateWavesOff` (wave-order's `reportLateWaves`), a plan whose wave is later
 * than its own dependencies need, which its author chose to hold it back.
 * So fixing every plan to its implied wave at once is consistent: a fix
 * never calls for another. `undefined` on a cycle, or below a dependency
 * that cannot be known.
 */
export function impliedWave(graph: PlanGraph, node: PlanNode, lateWavesOff = false): ImpliedWave | undefined {
  const known = graph.memo(`impliedWaves${lateWavesOff ? ':late' : ''}`, () => new Map<PlanNode, ImpliedWave | undefined>())
  const visiting = new Set<PlanNode>()
  const place = (plan: PlanNode): ImpliedWave | undefined => {
    if (known.has(plan)) return known.get(plan)
    if (visiting.has(plan)) return undefined
    visiting.add(plan)
    const dependencies = phaseDependencies(graph, plan)
    let result: ImpliedWave | undefined = dependencies?.length === 0 ? {wave: firstWave(graph, plan.directory)} : undefined
    for (const dependency of dependencies ?? []) {
      const {target} = dependency
      let placed = keepsDeclaredWave(graph, target) ? target.wave : place(target)?.wave
      // A later wave than its dependencies need holds the plan back, as its author chose: the plans after it follow that wave.
      if (!lateWavesOff && placed !== undefined && target.wave !== undefined && Number.isInteger(target.wave) && target.wave > placed) placed = target.wave
      if (placed === undefined) {
        result = undefined
        break
      }
      if (!result || placed + 1 > result.wave) result = {wave: placed + 1, latest: {...dependency, wave: placed}}
    }
    visiting.delete(plan)
    // A plan reached again while visiting is on a cycle, and so is every plan on the way back to it: `undefined` is right for all.
    known.set(plan, result)
    return result
  }
  return place(node)
}

/**
 * Whether the plans after `plan` follow the wave it declares, not the wave
 * its dependencies place it in: a plan that has run ran there, and a
 * gap-closure plan (`closesGaps`) runs in a round of its own (`execute-phase
 * --gaps-only`), so its wave need only come after its dependencies' there
 * (`unorderedDependency`).
 */
function keepsDeclaredWave(graph: PlanGraph, plan: PlanNode): plan is PlanNode & {wave: number} {
  return plan.wave !== undefined && Number.isInteger(plan.wave) && (plan.closesGaps === true || graph.executionState(plan) === 'executed')
}

/** Whether no other plan to schedule shares the plan's phase folder (summaries and superseded plans are none). */
function aloneInPhase(graph: PlanGraph, node: PlanNode): boolean {
  return graph.inDirectory(node.directory).every((other) => other === node || other.summaryOnly || other.superseded)
}

/**
 * The first dependency of its phase that `node`'s declared `wave` does not
 * come after. For a gap-closure plan (`closesGaps`), only the plans still to
 * run count: execute-phase groups only those into waves (it skips the plans
 * with a summary), so one that has run is done, whatever its wave — a plan
 * of the first round, or a gap plan of an earlier round (once both have run,
 * nothing tells the rounds apart, and either way it ran first) — and the
 * round numbers its waves from 1 again (GSD's gap-closure reference: "Plans
 * with no dependencies → wave 1").
 */
export function unorderedDependency(graph: PlanGraph, node: PlanNode): {entry: DependencyEntry; target: PlanNode} | undefined {
  const declared = node.wave
  if (declared === undefined) return undefined
  const done = (target: PlanNode) => node.closesGaps === true && graph.executionState(target) === 'executed'
  return graph.edges(node).find(({target}) => target.directory === node.directory && target.wave !== undefined && target.wave >= declared && !done(target))
}

/**
 * Whether a plan's declared `wave` is off: before the wave its dependencies
 * place it in (`implied`, from `impliedWave`), or, with `lateWavesOff`, any
 * other wave than that one; or, when none can be worked out, or for a
 * gap-closure plan (which may number its waves from 1 again or on from the
 * phase's last wave), not after the waves of the plans it depends on
 * (`unorderedDependency`). Never on a cycle, where no wave can be right, nor
 * for a `wave` that is no integer, nor for a plan alone in its phase, which
 * runs alone whatever its wave says.
 */
export function waveIsOff(graph: PlanGraph, node: PlanNode, implied: number | undefined, lateWavesOff = false): boolean {
  // A `wave` that is no integer (`2.5`) is frontmatter-schema's to report: no whole wave follows from it.
  if (node.wave === undefined || !Number.isInteger(node.wave) || graph.cycleThrough(node) || aloneInPhase(graph, node)) return false
  if (implied !== undefined && !node.closesGaps) return lateWavesOff ? implied !== node.wave : node.wave < implied
  return unorderedDependency(graph, node) !== undefined
}

/**
 * The first same-phase dependency of `node` whose declared `wave` is off and
 * is reported with `node`'s: one still to run (its message and fix move
 * `node`'s wave too), or, for a plan that has run, one that has run too (an
 * audit's one cause). `wave-order` leaves `node` alone meanwhile: a wrong
 * early `wave` is reported once, at its plan, not on every plan after it. A
 * plan that has run moves no plan still to run: those follow the wave it ran
 * in.
 */
export function misplacedDependency(graph: PlanGraph, node: PlanNode, lateWavesOff = false): PhaseDependency | undefined {
  const ran = graph.executionState(node) !== 'pending'
  return phaseDependencies(graph, node)?.find(
    ({target}) => (ran || graph.executionState(target) === 'pending') && waveIsOff(graph, target, impliedWave(graph, target, lateWavesOff)?.wave, lateWavesOff)
  )
}

/**
 * The wave a phase's plans start in: 0 when a plan that waits for no plan of
 * the phase (or for one that cannot be known) declares `wave: 0`, as some
 * projects count from 0, else 1. Only plans that no wave fix moves count, so
 * fixing the phase's waves never changes where it starts.
 */
function firstWave(graph: PlanGraph, directory: string): number {
  const known = graph.memo('firstWaves', () => new Map<string, number>())
  let wave = known.get(directory)
  if (wave === undefined) {
    const startsAtZero = graph
      .inDirectory(directory)
      .some((plan) => plan.wave === 0 && !plan.summaryOnly && !plan.superseded && !phaseDependencies(graph, plan)?.length)
    known.set(directory, (wave = startsAtZero ? 0 : 1))
  }
  return wave
}

/**
 * The wave a plan is in once `wave-order`'s fixes are applied: its declared
 * `wave`, unless it is off or a plan it waits for is (whose fix moves it
 * too), then the wave its dependencies place it in; `undefined` when that
 * cannot be worked out. Worked out once per plan and graph: every plan of a
 * phase asks it of each of its peers.
 */
export function settledWave(graph: PlanGraph, node: PlanNode, lateWavesOff = false): number | undefined {
  const known = graph.memo(`settledWaves${lateWavesOff ? ':late' : ''}`, () => new Map<PlanNode, number | undefined>())
  if (known.has(node)) return known.get(node)
  const implied = impliedWave(graph, node, lateWavesOff)?.wave
  // Below a misplaced dependency, a late wave is still the author's unless late waves are reported: the dependency's fix moves the plan only past its declared wave.
  const belowMisplaced = () => (lateWavesOff || implied === undefined || node.wave === undefined ? implied : Math.max(implied, node.wave))
  const settled = waveIsOff(graph, node, implied, lateWavesOff) ? implied : misplacedDependency(graph, node, lateWavesOff) ? belowMisplaced() : node.wave
  known.set(node, settled)
  return settled
}

/** Where a plan goes when the plans of its wave that it conflicts with are separated: its wave, and the plans it must then wait for. */
export interface Separation {
  wave: number
  after: PlanNode[]
}

/**
 * The planner's rule for plans that must not share a wave ("if any file
 * appears in 2+ plans, bump the later plan to the next wave and repeat"),
 * played out over `plans` at once: in order of wave and then of `order`, a
 * plan that conflicts with a plan already placed in its wave goes to the
 * first later wave where it conflicts with no plan, neither one placed there
 * nor one that starts there, and then waits for every plan it conflicts with
 * in the waves it was moved past. Plans that stay keep their wave and wait for nothing new.
 */
export function separateWaves(
  plans: readonly PlanNode[],
  waveOf: (plan: PlanNode) => number,
  conflict: (a: PlanNode, b: PlanNode) => boolean,
  order: (a: PlanNode, b: PlanNode) => number
): Map<PlanNode, Separation> {
  const sorted = [...plans].sort((a, b) => waveOf(a) - waveOf(b) || order(a, b))
  const placed = new Map<PlanNode, number>()
  const clashes = (plan: PlanNode, wave: number) =>
    [...placed].some(([other, at]) => at === wave && conflict(plan, other)) ||
    sorted.some((other) => other !== plan && !placed.has(other) && waveOf(other) === wave && conflict(plan, other))
  for (const plan of sorted) {
    let wave = waveOf(plan)
    if ([...placed].some(([other, at]) => at === wave && conflict(plan, other))) {
      do wave++
      while (clashes(plan, wave))
    }
    placed.set(plan, wave)
  }
  const separations = new Map<PlanNode, Separation>()
  for (const [plan, wave] of placed) {
    // The plans it conflicts with from its own wave on: those in earlier waves already run before it.
    const after = sorted.filter((other) => {
      const at = placed.get(other)!
      return at >= waveOf(plan) && at < wave && conflict(plan, other)
    })
    separations.set(plan, {wave, after})
  }
  return separations
}
