import type {PlanGraph, PlanNode} from '../src/graph/graph.js'
import {byName, coupled, waitingOn} from '../src/graph/order.js'
import {impliedWave, misplacedDependency, settledWave, unorderedDependency, waveIsOff} from '../src/graph/waves.js'
import {normalizePath} from '../src/plan.js'
import {defineRule} from '../src/rule.js'

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
function buildsOn(plans: PlanGraph, node: PlanNode, implied: number, declared: number): {plans: PlanNode[]; reason: string; wave: number} | undefined {
  const state = plans.executionState(node)
  const files = new Set((node.files ?? []).map(normalizePath))
  const waiting = waitingOn(plans, node)
  const peers = plans.inDirectory(node.directory).flatMap((other) => {
    const settled = other === node || other.summaryOnly || other.superseded || plans.executionState(other) !== state ? undefined : settledWave(plans, other)
    // A plan this rule moves too counts only when it comes first by name (two such plans would be told to wait for each other), at the wave its own repair gives it.
    const moved = settled !== undefined && settled !== other.wave
    if (moved && byName(other, node) > 0) return []
    const at = moved ? (missingDependencies(plans, other)?.wave ?? settled) : settled
    // A plan one wave too early moves on to `implied`: only the plans there are beside it.
    if (at === undefined || at < implied || at >= Math.max(declared, implied + 1) || waiting.has(other)) return []
    const beside = at === implied ? 'beside' : 'before'
    // A file it only names (in a check, say) is read as its input when its wave is later than its dependencies imply: that wave says it waits for the plan that writes it.
    const output = plans.readsOutputOf(node, other) ?? (declared > implied ? plans.namesOutputOf(node, other) : undefined)
    const reads =
      output !== undefined ? `${beside} \`${other.name}\`, whose \`${output}\` it reads` : plans.readsSummaryOf(node, other) ? `${beside} \`${other.name}\`, whose summary it reads` : undefined
    const shared = declared > implied && !coupled(plans, node, other) ? other.files?.find((file) => files.has(normalizePath(file))) : undefined
    return [{plan: other, at, reads, edits: shared === undefined ? undefined : `beside \`${other.name}\`, which edits \`${shared}\` too`}]
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

/** What this rule tells `node` to add to `depends_on` instead of moving its `wave` (`buildsOn`), once per graph; none when it says something else or nothing. */
function missingDependencies(plans: PlanGraph, node: PlanNode): ReturnType<typeof buildsOn> {
  return plans.memo(`wave-order:missing\0${node.path}`, () => {
    const implied = node.wave === undefined || plans.cycleThrough(node) ? undefined : impliedWave(plans, node)
    if (!implied || node.wave === undefined || !waveIsOff(plans, node, implied.wave) || misplacedDependency(plans, node)) return undefined
    return buildsOn(plans, node, implied.wave, node.wave)
  })
}

/**
 * Waves run in order and plans of one wave run in parallel, so a plan's wave
 * comes right after the latest wave of the plans of its phase it depends on
 * (plans of earlier phases are done before the phase starts). The workflow's
 * index groups plans by the waves their `depends_on` implies, so a declared
 * wave that differs misleads every reader of the plan. Each plan is compared
 * with the wave the whole dependency graph implies for it, but only once the
 * plans it waits for are right: a wrong early wave is reported once, at its
 * plan, not on every plan after it. A plan that has run ran in the wave it
 * declares, so the plans after it are measured against that wave. A plan
 * alone in its phase runs alone, so its wave changes nothing.
 */
export default defineRule({
  id: 'wave-order',
  description: "A plan's `wave` comes right after the waves of the plans of its phase it depends on.",
  severity: 'warning',
  kinds: ['plan'],
  fixable: 'fix',
  defaultOptions: {},
  check({document, graph, report}) {
    const waveEntry = document.frontmatter?.entries.get('wave')
    if (!waveEntry) return
    const plans = graph()
    const node = plans.planAt(document.path)
    // Plans on a cycle have no wave that could be right (each fix would push the next plan on); `no-dependency-cycle` reports them.
    if (!node || node.wave === undefined || plans.cycleThrough(node)) return
    const declared = node.wave
    // `undefined` below a cycle or a dependency that cannot be known: then only the ordering is checked, with no wave to offer.
    const implied = impliedWave(plans, node)
    if (!waveIsOff(plans, node, implied?.wave) || misplacedDependency(plans, node)) return
    // A dependency with a `wave` is where it says: one still to run with a wrong one is reported first, at its own plan, and one that has run ran there.
    const waveOf = (target: PlanNode) => (target.wave === undefined ? `is placed in wave ${impliedWave(plans, target)?.wave}` : `is in wave ${target.wave}`)
    // Moving the wave would put the plan beside (or before) a plan it builds on: the repair is the `depends_on` it lacks, the author's to write.
    const missing = missingDependencies(plans, node)
    if (implied && missing) {
      const lead = implied.latest
        ? `the latest plan it depends on, \`${implied.latest.text}\`, ${waveOf(implied.latest.target)}, so this plan runs in wave ${implied.wave}`
        : node.dependsOn.length === 0
          ? `\`depends_on\` is empty, so this plan runs in wave ${implied.wave}`
          : `it depends on no plan of its own phase, so it runs in wave ${implied.wave}`
      const names = missing.plans.map((plan) => plan.name)
      const add = node.dependsOn.length === 0 ? `add \`depends_on: [${names.join(', ')}]\`` : `add ${names.map((name) => `\`${name}\``).join(', ')} to \`depends_on\``
      report({
        message: `\`wave: ${declared}\` but ${lead}, ${missing.reason}; ${add} ${missing.wave === declared ? 'rather than lower the wave' : missing.wave < declared ? `rather than lower the wave below ${missing.wave}` : `and set \`wave: ${missing.wave}\``}`,
        range: waveEntry.valueRange
      })
      return
    }
    const setWave = implied ? {fix: {range: waveEntry.valueRange, text: String(implied.wave)}} : {}
    const blocking = unorderedDependency(plans, node)
    if (blocking) {
      report({
        message: `\`wave: ${declared}\` but this plan depends on \`${blocking.entry.text}\`, which ${waveOf(blocking.target)}: a plan runs in a later wave than the plans it depends on${implied ? `; set \`wave: ${implied.wave}\`` : ''}`,
        range: waveEntry.valueRange,
        ...setWave
      })
    } else if (implied?.latest) {
      const {text, target} = implied.latest
      report({
        message: `\`wave: ${declared}\` but the latest plan it depends on, \`${text}\`, ${waveOf(target)}, so this plan runs in wave ${implied.wave}; set \`wave: ${implied.wave}\``,
        range: waveEntry.valueRange,
        ...setWave
      })
    } else if (implied) {
      report({
        message: node.dependsOn.length === 0
          ? `\`wave: ${declared}\` but \`depends_on\` is empty: a plan that waits for nothing runs in wave ${implied.wave}; set \`wave: ${implied.wave}\`, or list the plans it waits for`
          : `\`wave: ${declared}\` but it depends on no plan of its own phase, so it runs in wave ${implied.wave}; set \`wave: ${implied.wave}\``,
        range: waveEntry.valueRange,
        ...setWave
      })
    }
  }
})
