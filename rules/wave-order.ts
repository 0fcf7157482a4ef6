import {missingDependencies} from '../src/graph/builds-on.js'
import type {PlanNode} from '../src/graph/graph.js'
import {impliedWave, misplacedDependency, unorderedDependency, waveIsOff} from '../src/graph/waves.js'
import {defineRule} from '../src/rule.js'

interface Options {
  /** Also report a `wave` later than the dependencies need (GSD's index warns on it), with the fix to that wave; off, such a wave is the author's, reported only when it skips a plan the plan builds on. */
  reportLateWaves: boolean
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
 * declares, so the plans after it are measured against that wave. A wave
 * later than the dependencies need is the author's (GSD's planner writes
 * them, and its checker reads `depends_on` as a minimum), so only
 * `reportLateWaves` reports it, unless it skips a plan the plan builds on
 * (GSD's index places by `depends_on` alone). A plan alone in its phase runs
 * alone, so its wave changes nothing.
 */
export default defineRule<Options>({
  id: 'wave-order',
  description: "A plan's `wave` comes after the waves of the plans of its phase it depends on.",
  severity: 'warning',
  kinds: ['plan'],
  fixable: 'fix',
  defaultOptions: {reportLateWaves: false},
  check({document, graph, options, report}) {
    const waveEntry = document.frontmatter?.entries.get('wave')
    if (!waveEntry) return
    const plans = graph()
    const node = plans.planAt(document.path)
    // Plans on a cycle have no wave that could be right (each fix would push the next plan on); `no-dependency-cycle` reports them.
    if (!node || node.wave === undefined || plans.cycleThrough(node)) return
    const declared = node.wave
    // `undefined` below a cycle or a dependency that cannot be known: then only the ordering is checked, with no wave to offer.
    const lateWavesOff = options.reportLateWaves
    const implied = impliedWave(plans, node, lateWavesOff)
    // Off once late waves count (as any wave off is): a late wave the author chose still skips a plan it builds on, and is told to list it (`missing`), nothing else.
    if (!waveIsOff(plans, node, implied?.wave, true) || misplacedDependency(plans, node, lateWavesOff)) return
    // A dependency with a `wave` is where it says: one still to run with a wrong one is reported first, at its own plan, and one that has run ran there.
    const waveOf = (target: PlanNode) => (target.wave === undefined ? `is placed in wave ${impliedWave(plans, target, lateWavesOff)?.wave}` : `is in wave ${target.wave}`)
    // Moving the wave would put the plan beside (or before) a plan it builds on: the repair is the `depends_on` it lacks, the author's to write.
    const missing = missingDependencies(plans, node, lateWavesOff)
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
    if (!waveIsOff(plans, node, implied?.wave, lateWavesOff)) return
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
