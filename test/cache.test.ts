import fs from 'node:fs'
import path from 'node:path'
import {pathToFileURL} from 'node:url'
import {afterEach, beforeEach, describe, expect, it, vi} from 'vitest'
import {ConfigurationKeys, LintCache} from '../src/cache.js'
import {lintEach} from '../src/lint.js'
import {LintSession, type LintFinding} from '../src/session.js'
import {cliBin, planlint, repository, run} from './support/cli.js'
import {removeTree, writeTree} from './support/tree.js'

let sandbox: string
let cacheFile: string
const identity = {version: 'test', strategy: 'metadata' as const}

beforeEach(() => {
  sandbox = writeTree([], 'planlint-cache-')
  fs.cpSync(path.join(repository, 'examples/.planning'), path.join(sandbox, '.planning'), {recursive: true})
  cacheFile = path.join(sandbox, '.planlintcache')
})
afterEach(() => {
  vi.restoreAllMocks()
  removeTree(sandbox)
})

const markdownFiles = () =>
  fs
    .readdirSync(path.join(sandbox, '.planning'), {recursive: true, withFileTypes: true})
    .filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort()

const name = (filePath: string) => path.basename(filePath)

/** One run of the files through the cache, as the CLI makes it: a session, and the cache file of the run before. */
async function cachedRun(files = markdownFiles(), strategy: 'metadata' | 'content' = 'metadata') {
  const session = new LintSession()
  const store = new LintCache<LintFinding[]>(cacheFile, {...identity, strategy})
  store.restoreTrees(session)
  const keys = new ConfigurationKeys({version: identity.version, flags: {}})
  const linted: string[] = []
  const findings = new Map<string, LintFinding[]>()
  const lint = vi.spyOn(session, 'lint')
  await lintEach({paths: files, cwd: sandbox, session, cache: {store, keys}}, (file) => findings.set(name(file.path), file.findings))
  for (const [linting] of lint.mock.calls) linted.push(name(linting))
  store.save(session)
  return {linted, findings}
}

/** The same files without a cache: what every cached run must give. */
async function uncachedRun() {
  const findings = new Map<string, LintFinding[]>()
  await lintEach({paths: markdownFiles(), cwd: sandbox}, (file) => findings.set(name(file.path), file.findings))
  return findings
}

function edit(relative: string, change: (text: string) => string) {
  const filePath = path.join(sandbox, '.planning', relative)
  const before = fs.statSync(filePath)
  fs.writeFileSync(filePath, change(fs.readFileSync(filePath, 'utf8')))
  // Time and size must tell: a later mtime even on a file system with coarse times.
  fs.utimesSync(filePath, before.atime, new Date(before.mtimeMs + 2000))
}

describe('--cache store', () => {
  it('gives the findings of a run without cache, from the cache on a second run', async () => {
    const first = await cachedRun()
    expect(first.linted).toHaveLength(markdownFiles().length)
    expect(first.findings).toEqual(await uncachedRun())
    const second = await cachedRun()
    expect(second.linted).toEqual([])
    expect(second.findings).toEqual(first.findings)
  })

  it('re-lints only the edited plan after an edit of its body', async () => {
    await cachedRun()
    edit('phases/02-api/02-02-PLAN.md', (text) => text + '\nOne more line of notes.\n')
    const run = await cachedRun()
    expect(run.linted).toEqual(['02-02-PLAN.md'])
    expect(run.findings).toEqual(await uncachedRun())
  })

  it('re-lints the plans whose cross-file findings can change after an edit of depends_on, and gives their new findings', async () => {
    await cachedRun()
    const plan = path.join(sandbox, '.planning/phases/02-api/02-02-PLAN.md')
    expect(fs.readFileSync(plan, 'utf8')).toMatch(/^depends_on:.*$/m)
    edit('phases/02-api/02-02-PLAN.md', (text) => text.replace(/^depends_on:.*$/m, 'depends_on: ["02-07"]'))
    const run = await cachedRun()
    const fresh = await uncachedRun()
    expect(run.findings).toEqual(fresh)
    expect(fresh.get('02-02-PLAN.md')!.some((finding) => finding.ruleId === 'dependency-exists' && finding.message.includes('`02-07`'))).toBe(true)
    expect(run.linted).toContain('02-02-PLAN.md')
    // Plans of the other phase do not read the facts of 02-02.
    expect(run.linted).not.toContain('01-01-PLAN.md')
    expect(run.linted.length).toBeLessThan(markdownFiles().length)
  })

  it('sees a change of content under the content strategy, and not a touch that keeps it', async () => {
    await cachedRun(markdownFiles(), 'content')
    edit('phases/01-setup/01-01-PLAN.md', (text) => text)
    expect((await cachedRun(markdownFiles(), 'content')).linted).toEqual([])
    edit('phases/01-setup/01-01-PLAN.md', (text) => text.replace('<task', '<task '))
    expect((await cachedRun(markdownFiles(), 'content')).linted).toContain('01-01-PLAN.md')
  })

  it('ignores a corrupt or foreign cache file, and replaces it with its own', async () => {
    for (const text of ['{"format": "planlint-cache-1", "files": ', '{"version": 3, "files": {"a.js": [1, 2]}}', '\u0000\u0001', 'null']) {
      fs.writeFileSync(cacheFile, text)
      const run = await cachedRun()
      expect(run.linted).toHaveLength(markdownFiles().length)
      expect(run.findings).toEqual(await uncachedRun())
      expect((await cachedRun()).linted).toEqual([])
    }
  })

  it('re-lints everything under another planlint version or configuration', async () => {
    await cachedRun()
    const file = markdownFiles()[0]
    const session = new LintSession()
    const stats = fs.statSync(file)
    const config = new ConfigurationKeys({version: identity.version, flags: {}}).of(file)
    expect(new LintCache<LintFinding[]>(cacheFile, identity).lookup(file, stats, config, session)).toBeDefined()
    expect(new LintCache<LintFinding[]>(cacheFile, {...identity, version: 'other'}).lookup(file, stats, config, session)).toBeUndefined()
    const otherFlags = new ConfigurationKeys({version: identity.version, flags: {preset: 'gsd'}}).of(file)
    expect(new LintCache<LintFinding[]>(cacheFile, identity).lookup(file, stats, otherFlags, session)).toBeUndefined()
    fs.writeFileSync(path.join(sandbox, '.remarkrc.json'), '{"plugins": ["planlint"]}')
    const withConfig = new ConfigurationKeys({version: identity.version, flags: {}}).of(file)
    expect(new LintCache<LintFinding[]>(cacheFile, identity).lookup(file, stats, withConfig, session)).toBeUndefined()
  })

  it('reads no sibling of a one-file run when the tree is cached, and writes the cache file atomically', async () => {
    await cachedRun()
    const plan = path.join(sandbox, '.planning/phases/01-setup/01-02-PLAN.md')
    edit('phases/01-setup/01-02-PLAN.md', (text) => text + '\n')
    const read = vi.spyOn(fs, 'readFileSync')
    const rename = vi.spyOn(fs, 'renameSync')
    const run = await cachedRun([plan])
    const plansRead = read.mock.calls.map(([file]) => String(file)).filter((file) => file.endsWith('.md'))
    expect(run.linted).toEqual(['01-02-PLAN.md'])
    // The edited plan only: once to lint, once for its new graph facts.
    expect([...new Set(plansRead)]).toEqual([plan])
    expect(rename.mock.calls.map(([, to]) => to)).toEqual([cacheFile])
  })

  it('a one-file run the cache answers, in a fresh process, loads no linter, vfile, glob or ignore matcher, nor worker threads', () => {
    const plan = '.planning/phases/01-setup/01-02-PLAN.md'
    const args = ['--format', 'json', '--cache', '--cache-location', cacheFile]
    expect(planlint(sandbox, ...args, '.planning').code).not.toBe(2)
    // A loader hook that lists every module the run loads (ESM by URL, CommonJS through `require`).
    const hooks = path.join(sandbox, 'hooks.mjs')
    const log = path.join(sandbox, 'loaded.txt')
    fs.writeFileSync(hooks, `import fs from 'node:fs'\nexport async function load(url, context, next) { fs.appendFileSync(${JSON.stringify(log)}, url + '\\n'); return next(url, context) }\n`)
    fs.writeFileSync(path.join(sandbox, 'register.mjs'), `import {register} from 'node:module'\nregister(${JSON.stringify(pathToFileURL(hooks).href)})\nprocess.on('exit', () => fs.appendFileSync(${JSON.stringify(log)}, Object.keys(require.cache).join('\\n')))\nimport fs from 'node:fs'\nimport {createRequire} from 'node:module'\nconst require = createRequire(import.meta.url)\n`)
    const warm = run(process.execPath, ['--import', path.join(sandbox, 'register.mjs'), cliBin, ...args, plan], sandbox)
    expect(warm.stderr).toBe('')
    expect(JSON.parse(warm.stdout)).toHaveLength(1)
    const loaded = fs.readFileSync(log, 'utf8')
    expect(loaded).toContain('dist/src/cache.js')
    for (const absent of ['dist/src/session.js', 'dist/rules/', 'node_modules/yaml/', 'node_modules/remark', 'node_modules/vfile/', 'node_modules/picomatch/', 'node_modules/ignore/', 'node:worker_threads']) {
      expect(loaded, absent).not.toContain(absent)
    }
  })
})
