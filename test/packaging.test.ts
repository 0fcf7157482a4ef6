import {spawnSync} from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {repository} from './support/cli.js'
import {brokenPlan, removeTree, writeTree} from './support/tree.js'

/**
 * The package as `npm pack` makes it: what an installer gets. Packed from a
 * copy of the built repository, with the prepack step but its build (`npm
 * test` built already; rebuilding here would rewrite dist/ under the other
 * test files).
 */
let tarball: string
let folder: string
beforeAll(() => {
  folder = writeTree([], 'planlint-pack-')
  const copy = path.join(folder, 'planlint')
  for (const entry of ['package.json', 'README.md', 'LICENSE', 'dist', 'docs', 'agents', 'scripts/pack-manifest.mjs']) {
    fs.cpSync(path.join(repository, entry), path.join(copy, entry), {recursive: true})
  }
  expect(spawnSync(process.execPath, ['scripts/pack-manifest.mjs', 'strip'], {cwd: copy}).status).toBe(0)
  const pack = spawnSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', folder], {cwd: copy, encoding: 'utf8'})
  expect(pack.status, pack.stderr).toBe(0)
  tarball = path.join(folder, JSON.parse(pack.stdout)[0].filename)
}, 300_000)
afterAll(() => removeTree(folder))

const listing = () => spawnSync('tar', ['-tzf', tarball], {encoding: 'utf8'}).stdout.split('\n')
const packedManifest = () => JSON.parse(spawnSync('tar', ['-xOzf', tarball, 'package/package.json'], {encoding: 'utf8'}).stdout)

describe('the packed package', () => {
  it('ships its LICENSE, no source maps, and no install script', () => {
    const files = listing()
    expect(files).toContain('package/LICENSE')
    expect(files.filter((file) => file.endsWith('.map'))).toEqual([])
    expect(packedManifest().scripts.prepare).toBeUndefined()
    // The checkout keeps it: `npm install` in a clone builds dist/; packing drops it.
    const scripts = JSON.parse(fs.readFileSync(path.join(repository, 'package.json'), 'utf8')).scripts
    expect(scripts).toMatchObject({prepare: 'npm run build', prepack: expect.stringContaining('pack-manifest.mjs strip'), postpack: expect.stringContaining('pack-manifest.mjs restore')})
  })

  it('names its repository, homepage and bugs, and takes ESLint 9.34 or 10 as peer', () => {
    const manifest = packedManifest()
    expect(manifest.repository.url).toContain('github.com/planlint/planlint')
    expect(manifest.homepage).toBeTruthy()
    expect(manifest.bugs.url).toBeTruthy()
    expect(manifest.peerDependencies.eslint).toBe('^9.34.0 || ^10.0.0')
    expect(manifest.dependencies['vfile-reporter']).toBeUndefined()
  })
})

/** Installing from the registry takes a minute or two: in CI (`CI` set) or when asked. */
const installFromRegistry = Boolean(process.env.CI || process.env.PLANLINT_TEST_INSTALL)

describe.skipIf(!installFromRegistry)('installed with ESLint 9 into an `npm init` project', {timeout: 600_000}, () => {
  it('installs without ERESOLVE, and the docs/eslint.md config lints the plans', () => {
    const project = writeTree([{path: '.planning/phases/01-storage/01-01-PLAN.md', text: brokenPlan}], 'planlint-eslint9-')
    try {
      expect(spawnSync('npm', ['init', '-y'], {cwd: project}).status).toBe(0)
      const install = spawnSync('npm', ['install', '--no-audit', '--no-fund', tarball, 'eslint@9', '@eslint/markdown@8'], {cwd: project, encoding: 'utf8'})
      expect(install.status, install.stderr).toBe(0)
      expect(install.stderr).not.toContain('install-scripts')
      const guide = fs.readFileSync(path.join(repository, 'docs/eslint.md'), 'utf8')
      const config = guide.slice(guide.indexOf('```js\n') + 6, guide.indexOf('\n```', guide.indexOf('```js\n'))).replace('  // ...your other configs\n', '')
      fs.writeFileSync(path.join(project, 'eslint.config.mjs'), config + '\n')
      const eslint = spawnSync(path.join(project, 'node_modules/.bin/eslint'), ['--version'], {cwd: project, encoding: 'utf8'})
      expect(eslint.stdout).toMatch(/^v9\./)
      const lint = spawnSync(path.join(project, 'node_modules/.bin/eslint'), ['.planning'], {cwd: project, encoding: 'utf8'})
      expect(lint.status, lint.stderr).toBe(1)
      expect(lint.stdout).toContain('planlint/auto-select-option')
    } finally {
      removeTree(project)
    }
  })
})
