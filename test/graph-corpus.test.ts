import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {misplacedDependency} from '../src/graph/waves.js'
import {treeView, type PlanView} from '../src/graph/render-model.js'
import {lintFiles} from '../src/lint.js'
import {LintSession} from '../src/session.js'
import {corpus, corpusPresent} from './support/corpus.js'
import {removeTree, writeTree} from './support/tree.js'

/**
 * The graph `planlint graph` draws agrees with the rules about the same tree:
 * a plan is drawn on a cycle exactly when `no-dependency-cycle` reports it
 * (with the same cycle), and drawn with a wave mark exactly when `wave-order`
 * reports it (with the wave it asks for), or when `wave-order` waits for a
 * plan it depends on to be fixed first (it reports a wrong early wave once).
 */
async function expectAgreement(planning: string): Promise<{cycles: number; waves: number}> {
  const graph = new LintSession({roots: [planning]}).graphOfTree(planning)
  // Only the plans: the rules read the others through the graph, from disk.
  const planPaths = graph.nodes.filter((node) => !node.summaryOnly).map((node) => node.path)
  const files = await lintFiles({paths: planPaths, cwd: path.dirname(planning), preset: 'recommended', includeExecuted: true})
  const reported = (ruleId: string) =>
    new Map(files.flatMap((file) => file.messages.filter((message) => message.ruleId === ruleId).map((message) => [path.resolve(file.cwd, file.path), message.reason] as const)))
  const cycleMessages = reported('no-dependency-cycle')
  const waveMessages = reported('wave-order')
  const view = treeView(graph, {cwd: '/', readText: () => ''})
  const plans = view.phases.flatMap((phase) => phase.waves.flatMap((wave) => wave.plans)).filter((plan) => !plan.summaryOnly)
  const absolute = (plan: PlanView) => path.resolve('/', plan.path)
  const nameOf = (key: string) => graph.byPath.get(path.resolve('/', key))!.name
  for (const plan of plans) {
    const cycleMessage = cycleMessages.get(absolute(plan))
    expect(plan.cycle !== null, `${plan.path}: drawn on a cycle? no-dependency-cycle says: ${cycleMessage}`).toBe(cycleMessage !== undefined)
    if (plan.cycle && plan.cycle.length > 2) expect(cycleMessage).toContain(plan.cycle.map(nameOf).join(' → '))
    const waveMessage = waveMessages.get(absolute(plan))
    if (waveMessage !== undefined) {
      expect(plan.waveMismatch, `${plan.path}: wave-order says ${waveMessage}`).toBe(true)
      const asked = /set `wave: (\d+)`/.exec(waveMessage)?.[1]
      expect(plan.impliedWave).toBe(asked === undefined ? null : Number(asked))
    } else if (plan.waveMismatch) {
      expect(misplacedDependency(graph, graph.byPath.get(absolute(plan))!), `${plan.path}: marked, but wave-order is silent`).toBeDefined()
    }
  }
  return {cycles: plans.filter((plan) => plan.cycle).length, waves: waveMessages.size}
}

const plan = (number: string, dependsOn: string[], wave: number) =>
  `---\nphase: 01-core\nplan: ${number}\nwave: ${wave}\ndepends_on: ${JSON.stringify(dependsOn)}\nautonomous: true\n---\n\n<task type="auto">\n  <name>Do it</name>\n  <action>Do it.</action>\n</task>\n`

describe('the graph agrees with wave-order and no-dependency-cycle', {timeout: 120_000}, () => {
  it('on a tree with a cycle, a wrong wave and a wave fixed after its dependency', async () => {
    const root = writeTree([
      {path: '.planning/phases/01-core/01-01-PLAN.md', text: plan('01', [], 1)},
      {path: '.planning/phases/01-core/01-02-PLAN.md', text: plan('02', ['01-01'], 1)},
      {path: '.planning/phases/01-core/01-03-PLAN.md', text: plan('03', ['01-02'], 2)},
      {path: '.planning/phases/01-core/01-04-PLAN.md', text: plan('04', ['01-05'], 2)},
      {path: '.planning/phases/01-core/01-05-PLAN.md', text: plan('05', ['01-06'], 2)},
      {path: '.planning/phases/01-core/01-06-PLAN.md', text: plan('06', ['01-04'], 2)}
    ])
    try {
      expect(await expectAgreement(path.join(root, '.planning'))).toEqual({cycles: 3, waves: 1})
    } finally {
      removeTree(root)
    }
  })

  // Small tune and check trees with wave marks (the corpus has no cycle): a few seconds in all.
  describe.skipIf(!corpusPresent)('on corpus trees', () => {
    for (const name of ['ChafikGhourabi__skull-king', 'SpeedxPz__jellyfin-music-sync', 'JulienSams__quittance', 'Greenplumwine__vscode-mybatis-helper', 'LinkHellc__milk-tea-gashapon']) {
      it(name, async () => {
        const {waves} = await expectAgreement(path.join(corpus, name, '.planning'))
        expect(waves).toBeGreaterThan(0)
      })
    }
  })
})
