import type {PlanGraph, PlanNode} from './graph.js'
import {byName, coupled, waitingOn} from './order.js'
import {impliedWave, misplacedDependency, settledWave, waveIsOff} from './waves.js'
import {normalizePath} from '../plan.js'

/** The plans a plan builds on and does not list, why (of the first), and the wave it then needs. */
export interface BuildsOn {
  plans: PlanNode[]
  reason: string
  wave: number
}

/**
 * The plans of its phase that `node` builds on and does not list, when
 * moving its `wave` from `declared` to `implied` would put it beside or
 * before them: one in a wave from there to before `declared` whose summary,
 * or a file it writes, `node` reads (with `@`, or, for a plan in a later wave
 * than `implied`, as a path its text names), or, for a plan one wave too late, one
 * in a wave it would land in that edits a file it edits too (unless
 * `coupling_justified` names the pair; which of two plans one wave too early
 * should wait is not said by their waves). Each such plan moves the landing
 * wave on past its own, so the plans there count in turn. Of the plans this
 * rule moves too, only those before it by name count, which keep the fix.
 * Then the missing part is the `depends_on`, and `wave` is where the plans
 * it builds on put it.
 */
function buildsOn(plans: PlanGraph, node: PlanNode, implied: number, declared: number, lateWavesOff: boolean): BuildsOn | undefined {
  const state = plans.executionState(node)
  const files = new Set((node.files ?? []).map(normalizePath))
  const waiting = waitingOn(plans, node)
  const peers = plans.inDirectory(node.directory).flatMap((other) => {
    // A plan written after `node` ran (a gap-closure plan of a later round) never runs beside it: if one builds on the other, that plan comes after.
    const settled =
      other === node || other.summaryOnly || other.superseded || plans.executionState(other) !== state || plans.writtenAfterRunOf(other, node) ? undefined : settledWave(plans, other, lateWavesOff)
    // A plan this rule moves too counts only when it comes first by name (two such plans would be told to wait for each other), at the wave its own repair gives it.
    const moved = settled !== undefined && settled !== other.wave
    if (moved && byName(other, node) > 0) return []
    const at = moved ? (missingDependencies(plans, other, lateWavesOff)?.wave ?? settled) : settled
    // A plan one wave too early moves on to `implied`: only the plans there are beside it.
    if (at === undefined || at < implied || at >= Math.max(declared, implied + 1) || waiting.has(other)) return []
    const beside = at === implied ? 'beside' : 'before'
    // A file it only names (in a check, say) is read as its input when its wave is later than its dependencies imply: that wave says it waits for the plan that writes it.
    const output = plans.readsOutputOf(node, other) ?? (declared > implied ? plans.namesOutputOf(node, other) : undefined)
    const reads =
      output !== undefined ? `${beside} \`${other.name}\`, whose \`${output}\` it reads` : plans.readsSummaryOf(node, other) ? `${beside} \`${other.name}\`, whose summary it reads` : undefined
    const shared = declared > implied && !coupled(plans, node, other) ? other.files?.find((file) => files.has(normalizePath(file))) : undefined
    // A plan of a later wave is beside it only once a read moves it on there: at `implied` it runs first, with nothing to order the two edits.
    const edits =
      shared === undefined
        ? undefined
        : at === implied
          ? `beside \`${other.name}\`, which edits \`${shared}\` too`
          : `and nothing orders it after \`${other.name}\`, which runs in wave ${at} and edits \`${shared}\` too`
    return [{plan: other, at, reads, edits}]
  })
  // A plan it reads moves the landing wave on past its own wherever it is; one it edits only once the wave reaches it, so, in order of wave, one pass settles where it lands.
  let wave = implied
  for (const {at, reads} of peers) if (reads !== undefined) wave = Math.max(wave, at + 1)
  for (const {at} of peers.filter(({reads, edits}) => reads === undefined && edits !== undefined).sort((a, b) => a.at - b.at)) {
    if (at > wave) break
    wave = Math.max(wave, at + 1)
  }
  // Every plan of a wave it lands in or passes on the way is beside it.
  const found = peers
    .flatMap(({plan, at, reads, edits}) => {
      const reason = at <= wave ? (edits ?? reads) : reads
      return reason === undefined ? [] : [{plan, reason}]
    })
    .sort((a, b) => byName(a.plan, b.plan))
  return found.length === 0 ? undefined : {plans: found.map(({plan}) => plan), reason: found[0].reason, wave}
}

/**
 * What `wave-order` tells `node` to add to `depends_on` instead of moving its
 * `wave` (`buildsOn`), once per graph; none when it says something else or
 * nothing. A plan later than its dependencies need counts whether or not
 * late waves are off (`lateWavesOff`, wave-order's `reportLateWaves`): GSD's
 * index places plans by `depends_on` alone, so a late wave holds the plan
 * back from one it builds on only once `depends_on` lists it.
 */
export function missingDependencies(plans: PlanGraph, node: PlanNode, lateWavesOff = false): BuildsOn | undefined {
  return plans.memo(`wave-order:missing${lateWavesOff ? ':late' : ''}\0${node.path}`, () => {
    if (node.wave === undefined || plans.cycleThrough(node)) return undefined
    const implied = impliedWave(plans, node, lateWavesOff)
    if (!implied || !waveIsOff(plans, node, implied.wave, true) || misplacedDependency(plans, node, lateWavesOff)) return undefined
    return buildsOn(plans, node, implied.wave, node.wave, lateWavesOff)
  })
}
