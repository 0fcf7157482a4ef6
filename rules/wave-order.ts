import type {PlanNode} from '../src/graph/graph.js'
import {remarkRule} from '../src/remark.js'

/**
 * Waves run in order and plans of one wave run in parallel, so a plan's wave
 * comes right after the latest wave of the plans of its phase it depends on
 * (plans of earlier phases are done before the phase starts). The workflow's
 * index groups plans by the waves their `depends_on` implies, so a declared
 * wave that differs misleads every reader of the plan.
 */
export default remarkRule({
  id: 'wave-order',
  description: "A plan's `wave` comes right after the waves of the plans of its phase it depends on.",
  severity: 'warning',
  kinds: ['plan'],
  fixable: 'fix',
  crossFile: true,
  defaultOptions: {},
  check({document, graph, report}) {
    const frontmatter = document.frontmatter
    const waveEntry = frontmatter?.entries.get('wave')
    if (!frontmatter || !waveEntry) return
    const plans = graph()
    const node = plans.planAt(document.path)
    // Plans on a cycle have no wave that could be right (each fix would push the next plan on); `no-dependency-cycle` reports them.
    if (!node || node.wave === undefined || plans.cycleThrough(node)) return
    const declared = node.wave
    // Some projects count waves from 0; a phase that has a wave 0 plan does.
    const base = plans.nodes.some((other) => other.directory === node.directory && other.wave === 0) ? 0 : 1
    const setWave = (wave: number) => (frontmatter.errors.length === 0 ? {fix: {range: waveEntry.valueRange, text: String(wave)}} : {})
    if (node.dependsOn.length === 0) {
      if (declared > base) {
        report({
          message: `\`wave: ${declared}\` but \`depends_on\` is empty: a plan that waits for nothing runs in wave ${base}; set \`wave: ${base}\`, or list the plans it waits for`,
          range: waveEntry.valueRange,
          ...setWave(base)
        })
      }
      return
    }
    // The plans of this phase it waits for; `undefined` when one of them cannot be known (unresolved, summary only, no wave).
    let before: Array<{text: string; target: PlanNode}> | undefined = []
    for (const entry of node.dependsOn) {
      const resolution = plans.resolve(node, entry.text)
      if (resolution.status === 'resolved' && resolution.target.directory !== node.directory) continue
      if (resolution.status === 'completed' && resolution.summary.directory !== node.directory) continue
      if (resolution.status !== 'resolved' || resolution.target.wave === undefined) before = undefined
      else before?.push({text: entry.text, target: resolution.target})
    }
    const latest = before?.reduce<{text: string; target: PlanNode} | undefined>((found, dependency) => (!found || dependency.target.wave! > found.target.wave! ? dependency : found), undefined)
    const implied = before === undefined ? undefined : latest ? latest.target.wave! + 1 : base
    const blocking = plans.edges(node).find(({target}) => target.directory === node.directory && target.wave !== undefined && target.wave >= declared)
    if (blocking) {
      report({
        message: `\`wave: ${declared}\` but this plan depends on \`${blocking.entry.text}\`, which is in wave ${blocking.target.wave}: a plan runs in a later wave than the plans it depends on${implied !== undefined ? `; set \`wave: ${implied}\`` : ''}`,
        range: waveEntry.valueRange,
        ...(implied !== undefined ? setWave(implied) : {})
      })
    } else if (implied !== undefined && implied !== declared) {
      report({
        message: latest
          ? `\`wave: ${declared}\` but the latest plan it depends on, \`${latest.text}\`, is in wave ${latest.target.wave}, so this plan runs in wave ${implied}; set \`wave: ${implied}\``
          : `\`wave: ${declared}\` but it depends on no plan of its own phase, so it runs in wave ${base}; set \`wave: ${base}\``,
        range: waveEntry.valueRange,
        ...setWave(implied)
      })
    }
  }
})
