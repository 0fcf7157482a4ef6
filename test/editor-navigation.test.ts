import {spawnSync} from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {installPlanlint} from './support/cli.js'
import {editorFixtures, installed, recipe} from './support/editors.js'
import {planWith, removeTree, writeTree} from './support/tree.js'

/**
 * Walking the plan graph in a real editor: Debian's headless Neovim 0.7 with
 * the setup of docs/editors.md as written. On `01-02`'s `depends_on` entry
 * `01-01` it gets the hover (01-01's title, wave and status) and the code lens
 * on the frontmatter, jumps to 01-01's file with Neovim's own jump, and finds
 * the plans that depend on 01-01 there.
 */
const phase = '.planning/phases/01-storage'
const titled = (plan: string, dependsOn: string[], title: string, wave?: number) =>
  planWith(plan, dependsOn, {wave}).replace('---\n\n', `---\n\n# Plan 01-${plan}: ${title}\n\n`)

let root: string
beforeAll(() => {
  root = writeTree([
    {path: `${phase}/01-01-PLAN.md`, text: titled('01', [], 'Create the bucket')},
    {path: `${phase}/01-01-SUMMARY.md`, text: '# Summary\n\nThe bucket exists.\n'},
    {path: `${phase}/01-02-PLAN.md`, text: titled('02', ['01-01', '01-09'], 'Upload files')},
    {path: `${phase}/01-03-PLAN.md`, text: titled('03', ['01-02'], 'Thumbnails', 3)},
    {path: `${phase}/01-04-PLAN.md`, text: titled('04', ['01-01', '01-02'], 'Quotas', 3)},
    {path: 'package.json', text: '{"name": "demo", "private": true}\n'}
  ])
  installPlanlint(root)
})
afterAll(() => removeTree(root))

describe.skipIf(!installed('nvim'))('Neovim 0.7 (headless): depends_on you can follow', {timeout: 120_000}, () => {
  it('hovers, shows the code lens, jumps to the plan an entry names, and finds its dependents', () => {
    fs.writeFileSync(path.join(root, 'init.lua'), recipe('Neovim 0.7 to 0.10', 'lua'))
    const out = path.join(root, 'navigation.json')
    const run = spawnSync('nvim', ['--headless', '-u', 'init.lua', `${phase}/01-02-PLAN.md`, '-c', `luafile ${path.join(editorFixtures, 'neovim-navigation.lua')}`], {
      cwd: root,
      encoding: 'utf8',
      timeout: 90_000,
      env: {...process.env, PLANLINT_EDITOR_OUT: out, PLANLINT_EDITOR_ENTRY: '01-01', XDG_STATE_HOME: root, XDG_CACHE_HOME: root, XDG_DATA_HOME: root}
    })
    expect(run.status, run.stderr).toBe(0)
    const seen = JSON.parse(fs.readFileSync(out, 'utf8'))
    expect(seen.error).toBeUndefined()
    expect(seen.hover).toBe('**01-01 · Create the bucket**\n\nwave 1 · done')
    expect(seen.lenses).toEqual([{line: 0, title: 'wave 2 · after 01-01 (done), 01-09 (missing) · 2 plans depend on this'}])
    expect(seen.links).toEqual([path.join(root, phase, '01-01-PLAN.md')])
    expect(seen.jumped).toBe(path.join(root, phase, '01-01-PLAN.md'))
    expect(seen.cursor).toEqual([1, 0])
    // 01-02 and 01-04 name 01-01 on their depends_on line (line 6 of planWith's frontmatter).
    expect(seen.references).toEqual([
      {file: path.join(root, phase, '01-02-PLAN.md'), line: 6},
      {file: path.join(root, phase, '01-04-PLAN.md'), line: 6}
    ])
  })
})
