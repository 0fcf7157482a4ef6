import {spawnSync} from 'node:child_process'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {brokenPlan, cleanPlan, removeTree, writeTree} from './support/tree.js'

const remarkCli = fileURLToPath(new URL('../node_modules/remark-cli/cli.js', import.meta.url))
const planlint = fileURLToPath(new URL('../dist/src/index.js', import.meta.url))
const phase = '.planning/phases/01-storage'

describe('remark-cli with planlint in .remarkrc', {timeout: 60_000}, () => {
  let root: string
  beforeAll(() => {
    const suppressed = brokenPlan.replace('<task', '<!-- planlint-disable-next-line auto-select-option -->\n<task')
    root = writeTree([
      {path: '.remarkrc.json', text: JSON.stringify({plugins: [planlint]})},
      {path: `${phase}/01-01-PLAN.md`, text: suppressed},
      {path: `${phase}/01-02-PLAN.md`, text: cleanPlan}
    ])
  })
  afterAll(() => removeTree(root))

  it('fails with --frail and honours suppression comments', () => {
    const run = spawnSync(process.execPath, [remarkCli, '.planning', '--frail', '--quiet', '--no-color', '--no-stdout'], {cwd: root, encoding: 'utf8'})
    expect(run.status).toBe(1)
    const lines = run.stderr.split('\n').filter((line) => /^\d+:\d+/.test(line))
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/^8:13-8:17\s+error `autonomous: true` but this plan has a checkpoint task.*\sautonomous-flag\s+planlint$/)
    expect(run.stderr).toContain(path.join(phase, '01-01-PLAN.md'))
  })
})
