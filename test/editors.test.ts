import {spawnSync} from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {installPlanlint} from './support/cli.js'
import {editorFixtures, installed, recipe} from './support/editors.js'
import {brokenPlan, removeTree, writeTree} from './support/tree.js'

/**
 * The real editors, headless, with the setups of docs/editors.md as written:
 * Debian's Neovim 0.7 and Emacs 28 with eglot (`.ci/run` installs them).
 * Each shows planlint's diagnostics on a plan, applies the quick fix at the
 * `auto_select` typo, sees the diagnostic go, and keeps the server running;
 * both answer the server's `workspace/configuration` request with `[null]`
 * (no `planlint` setting), which crashed the old server.
 */
const plan = '.planning/phases/01-storage/01-01-PLAN.md'
const fixtures = editorFixtures

interface Seen {
  before: Array<{line: number; code: string}>
  after: Array<{line: number; code: string}>
  line: string
}

let root: string
beforeAll(() => {
  root = writeTree([{path: plan, text: brokenPlan}, {path: 'package.json', text: '{"name": "demo", "private": true}\n'}])
  installPlanlint(root)
})
afterAll(() => removeTree(root))

function expectFixed(seen: Seen) {
  expect(seen.before).toEqual([
    {line: 8, code: 'autonomous-flag'},
    {line: 16, code: 'auto-select-option'}
  ])
  expect(seen.line).toContain('auto_select="s3-compatible"')
  expect(seen.after).toEqual([{line: 8, code: 'autonomous-flag'}])
}

describe.skipIf(!installed('nvim'))('Neovim 0.7 (headless), the start_client recipe', {timeout: 120_000}, () => {
  it('shows the diagnostics, lists the preferred quick fix first, applies it, survives [null] configuration', () => {
    fs.writeFileSync(path.join(root, 'init.lua'), recipe('Neovim 0.7 to 0.10', 'lua'))
    const out = path.join(root, 'neovim.json')
    const run = spawnSync('nvim', ['--headless', '-u', 'init.lua', plan, '-c', `luafile ${path.join(fixtures, 'neovim-driver.lua')}`], {
      cwd: root,
      encoding: 'utf8',
      timeout: 90_000,
      env: {...process.env, PLANLINT_EDITOR_OUT: out, XDG_STATE_HOME: root, XDG_CACHE_HOME: root, XDG_DATA_HOME: root}
    })
    expect(run.status, run.stderr).toBe(0)
    const seen = JSON.parse(fs.readFileSync(out, 'utf8'))
    expect(seen.client).toBe('planlint')
    expectFixed({...seen, before: seen.before.map(({line, code}: Seen['before'][0]) => ({line, code})), after: seen.after.map(({line, code}: Seen['after'][0]) => ({line, code}))})
    expect(seen.actions[0]).toEqual({title: 'Replace `s3-compatable` with `s3-compatible`', kind: 'quickfix', preferred: true})
    expect(seen.stopped).toBe(false)
    fs.writeFileSync(path.join(root, plan), brokenPlan)
  })

  it('does not start the server for Markdown outside a planning tree', () => {
    fs.writeFileSync(path.join(root, 'notes.md'), '# Notes\n')
    const count = `lua vim.fn.writefile({tostring(#vim.lsp.buf_get_clients(0))}, 'clients.txt')`
    const run = spawnSync('nvim', ['--headless', '-u', 'init.lua', 'notes.md', '-c', count, '-c', 'qa!'], {
      cwd: root,
      encoding: 'utf8',
      timeout: 60_000,
      env: {...process.env, XDG_STATE_HOME: root, XDG_CACHE_HOME: root, XDG_DATA_HOME: root}
    })
    expect(run.status, run.stderr).toBe(0)
    expect(fs.readFileSync(path.join(root, 'clients.txt'), 'utf8')).toBe('0\n')
  })
})

describe.skipIf(!installed('emacs'))('Emacs 28 with eglot (batch mode), the eglot recipe', {timeout: 120_000}, () => {
  it('shows the diagnostics through Flymake, applies the quick fix, survives [null] configuration', () => {
    fs.writeFileSync(path.join(root, 'init.el'), recipe('Emacs (eglot)', 'elisp'))
    const out = path.join(root, 'emacs.json')
    // `package-activate-all` is what Emacs's startup does before a user's init (Debian's elpa-eglot, elpa-markdown-mode).
    const run = spawnSync('emacs', ['--batch', '-f', 'package-activate-all', '-l', 'init.el', '-l', path.join(fixtures, 'emacs-driver.el')], {
      cwd: root,
      encoding: 'utf8',
      timeout: 90_000,
      env: {...process.env, HOME: root, PLANLINT_EDITOR_OUT: out, PLANLINT_EDITOR_PLAN: path.join(root, plan)}
    })
    expect(run.status, run.stderr).toBe(0)
    const seen = JSON.parse(fs.readFileSync(out, 'utf8'))
    expect(seen.mode).toBe('markdown-mode')
    expect(seen.actions[0]).toBe('Replace `s3-compatable` with `s3-compatible`')
    expectFixed(seen)
    expect(seen.alive).toBe(true)
    fs.writeFileSync(path.join(root, plan), brokenPlan)
  })
})
