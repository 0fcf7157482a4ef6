import type {PlanNode} from '../src/graph/graph.js'
import {impliedWave, misplacedDependency, waveIsOff} from '../src/graph/waves.js'
import {defineRule} from '../src/rule.js'

/**
 * Waves run in order and plans of one wave run in parallel, so a plan's wave
 * comes right after the latest wave of the plans of its phase it depends on
 * (plans of earlier phases are done before the phase starts). The workflow's
 * index groups plans by the waves their `depends_on` implies, so a declared
 * wave that differs misleads every reader of the plan. Each plan is compared
 * with the wave the whole dependency graph implies for it, but only once the
 * plans it waits for are right: a wrong early wave is reported once, at its
 * plan, not on every plan after it. A plan that has run ran in the wave it
 * declares, so the plans after it are measured against that wave.
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
    const setWave = implied ? {fix: {range: waveEntry.valueRange, text: String(implied.wave)}} : {}
    // A dependency with a `wave` is where it says: one still to run with a wrong one is reported first, at its own plan, and one that has run ran there.
    const waveOf = (target: PlanNode) => (target.wave === undefined ? `is placed in wave ${impliedWave(plans, target)?.wave}` : `is in wave ${target.wave}`)
    const blocking = plans.edges(node).find(({target}) => target.directory === node.directory && target.wave !== undefined && target.wave >= declared)
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
