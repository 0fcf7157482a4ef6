#!/usr/bin/env node
// How fast planlint is, as ratios against an anchor measured in the same run
// (issue 11's goals): each figure is the median of `--runs` runs, the subject
// and its anchor interleaved, every run in a fresh process. Times are wall
// clock and CPU (user + system); on a shared machine the CPU ratio is the
// steadier one. Performance goals live here, never in timed tests.
//
//   cold-cli    the CLI on a real tree (default ../shared/corpus/real/yuseponub__morfx, a tune tree:
//               issue 11 named lightningjim__MusicStreamer, which split.tsv puts in check)
//               vs remark parsing the same files (no rules)                       goal <= 0.10x
//   remark      `remark --frail` with the planlint preset vs remark parse alone     goal <= 1.15x
//   plans       the tree's plans only, in-process, vs GSD's own plan-structure
//               check (bin/lib/verify.cjs of `npm pack get-shit-done-cc`)          goal <= 1x
//   staged      one plan of that tree in a fresh process (pre-commit, agent hook)  goal <= 400 ms cold
//               vs node's start-up (and the CLI's --version, its floor)
//   rss         peak RSS of the cold CLI run (all 92 trees with --whole-corpus)    goal <= 250 MB
//   synthetic   generated trees of 100 to 10,000 plans (a chain, and a dense graph:
//               every plan waits for every plan of the phase before): cost per plan
//               at the largest size over the smallest, and peak RSS              goal <= 1.5x, flat
//   graph       `planlint graph` (Mermaid) on that tree vs linting it, both fresh processes  goal <= 1x
//   lsp         the language server on the ~20 KB plan of that tree: 50 one-character edits
//               100 ms apart, change-to-diagnostics p50/p95 vs remark parsing the same
//               texts; versions linted (the newest only), backlog                  goal p95 <= 50 ms
//   cache       --cache on a copy of that tree: a re-run after editing one plan vs the cold
//               --cache run                                                        goal <= 0.02x
//   staged-cache one staged plan of that copy in a fresh process with --cache: warm cache
//               (the plan unchanged, and edited since), cold, vs node's start-up  goal <= 150 ms, <= 400 ms
//   concurrency --concurrency 2 on the corpus (--corpus-trees N: the first N trees) vs one
//               thread, and whether the output is identical                       goal <= 0.6x, identical
//
// Usage: npm run bench [-- --runs 3] [--tree DIR] [--sizes 100,1000,10000] [--only cold-cli,plans] [--whole-corpus] [--corpus-trees N]
// (`npm run bench` builds first: this runs the built dist/.)
import {spawnSync} from 'node:child_process'
import fs from 'node:fs'
import {createRequire} from 'node:module'
import os from 'node:os'
import path from 'node:path'
import {performance} from 'node:perf_hooks'
import {setTimeout as sleep} from 'node:timers/promises'
import {fileURLToPath} from 'node:url'
import {parseArgs} from 'node:util'

const repository = fileURLToPath(new URL('..', import.meta.url))
const script = fileURLToPath(import.meta.url)
const cliBin = path.join(repository, 'dist/src/cli/bin.js')
const remarkBin = path.join(repository, 'node_modules/remark-cli/cli.js')
const corpus = path.join(repository, '../shared/corpus/real')

const {values} = parseArgs({
  options: {
    runs: {type: 'string', default: '1'},
    tree: {type: 'string', default: path.join(corpus, 'yuseponub__morfx')},
    sizes: {type: 'string', default: '100,1000,10000'},
    only: {type: 'string'},
    'whole-corpus': {type: 'boolean', default: false},
    'corpus-trees': {type: 'string'},
    // Internal: run one measurement in this (fresh) process and print its figures as JSON.
    measure: {type: 'string'},
    args: {type: 'string', default: '[]'}
  }
})

/** The Markdown files the CLI lints in a folder (remark-cli's extensions). */
function markdownFiles(folder) {
  return fs
    .readdirSync(folder, {recursive: true, withFileTypes: true})
    .filter((entry) => entry.isFile() && /\.(md|markdown)$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort()
}

/** Measurements that run inside a child process; each returns what it timed in-process, if anything. */
const measurements = {
  /** The CLI's main(), as bin.js runs it, output discarded. */
  async cli(...argv) {
    const {main} = await import(path.join(repository, 'dist/src/cli/main.js'))
    const start = performance.now()
    await main(argv, {cwd: process.cwd(), stdout: () => {}, stderr: () => {}, isTTY: false})
    return {inProcessMs: performance.now() - start}
  },
  /** remark (CommonMark + YAML frontmatter, as the preset parses) on every Markdown file of the folders: the anchor. */
  async parse(...folders) {
    const {remark} = await import('remark')
    const {default: remarkFrontmatter} = await import('remark-frontmatter')
    const processor = remark().use(remarkFrontmatter, ['yaml']).freeze()
    const start = performance.now()
    for (const folder of folders) for (const file of markdownFiles(folder)) processor.parse(fs.readFileSync(file, 'utf8'))
    return {inProcessMs: performance.now() - start}
  },
  /** planlint on the plan files of a folder, in-process. */
  async 'plans-planlint'(folder) {
    const {isPlanFileName} = await import(path.join(repository, 'dist/src/model/document.js'))
    const {lintFiles} = await import(path.join(repository, 'dist/src/lint.js'))
    const plans = markdownFiles(folder).filter((file) => isPlanFileName(path.basename(file)))
    const start = performance.now()
    await lintFiles({paths: plans, cwd: folder, preset: 'recommended'})
    return {inProcessMs: performance.now() - start, plans: plans.length}
  },
  /** GSD's `verify plan-structure` on the same plans, in-process (its output, written to fd 1, discarded). */
  async 'plans-gsd'(folder, verifyModule) {
    const {isPlanFileName} = await import(path.join(repository, 'dist/src/model/document.js'))
    const plans = markdownFiles(folder).filter((file) => isPlanFileName(path.basename(file)))
    const verify = createRequire(import.meta.url)(verifyModule)
    const writeSync = fs.writeSync
    fs.writeSync = (fd, ...rest) => (fd === 1 ? 0 : writeSync(fd, ...rest))
    const start = performance.now()
    try {
      for (const plan of plans) verify.cmdVerifyPlanStructure(folder, plan, true)
    } finally {
      fs.writeSync = writeSync
    }
    return {inProcessMs: performance.now() - start, plans: plans.length}
  },
  /** Node's own start-up: the floor of any fresh-process run. */
  async node() {
    return {}
  }
}

if (values.measure) {
  const result = await measurements[values.measure](...JSON.parse(values.args))
  const usage = process.resourceUsage()
  result.cpuMs = (usage.userCPUTime + usage.systemCPUTime) / 1000
  result.rssMb = usage.maxRSS / 1024
  fs.writeSync(3, JSON.stringify(result))
  process.exit(0)
}

/** One measurement in a fresh process: its wall time, CPU time, peak RSS and in-process time. */
function child(name, args, cwd = repository) {
  const start = performance.now()
  const run = spawnSync(process.execPath, [script, '--measure', name, '--args', JSON.stringify(args)], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    maxBuffer: 1 << 26
  })
  const wallMs = performance.now() - start
  if (run.status !== 0) throw new Error(`${name} failed (${run.status}): ${run.stderr}`)
  return {wallMs, ...JSON.parse(run.output[3])}
}

/** A node command's wall time (exit 1, lint errors, is a result too). */
function command(args, cwd) {
  const start = performance.now()
  const run = spawnSync(process.execPath, args, {cwd, encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe']})
  const wallMs = performance.now() - start
  if (run.status === null || run.status > 1) throw new Error(`${args.join(' ')} failed (${run.status}): ${run.stderr}`)
  return {wallMs}
}

const runs = Number(values.runs)
const median = (numbers) => [...numbers].sort((a, b) => a - b)[Math.floor((numbers.length - 1) / 2)]

/** Runs subject and anchor `runs` times, interleaved; the median of each figure. */
function compare(subject, anchor) {
  const subjects = []
  const anchors = []
  for (let run = 0; run < runs; run++) {
    subjects.push(subject())
    anchors.push(anchor())
  }
  const summary = (results) => Object.fromEntries(Object.keys(results[0]).map((key) => [key, median(results.map((result) => result[key]))]))
  return {subject: summary(subjects), anchor: summary(anchors)}
}

const rows = []
const selected = (name) => !values.only || values.only.split(',').includes(name)
const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`
const ratio = (a, b) => `${(a / b).toFixed(2)}x`

function row(measurement, subject, anchor, wallRatio, cpuRatio, goal, met) {
  rows.push({measurement, subject, anchor, wallRatio, cpuRatio, goal, met: met === undefined ? '' : met ? 'yes' : 'no'})
  console.error(`  ${measurement}: ${subject} | ${anchor} | ${wallRatio} | ${cpuRatio}`)
}

const tree = path.resolve(values.tree)
const treeName = path.basename(tree)
const planning = path.join(tree, '.planning')
const haveTree = fs.existsSync(planning)
if (!haveTree) console.error(`(no ${planning}: the corpus rows are skipped)`)
let coldRss

if (haveTree && selected('cold-cli')) {
  const {subject, anchor} = compare(
    () => child('cli', ['--format', 'json', '.planning'], tree),
    () => child('parse', [planning])
  )
  coldRss = subject.rssMb
  row(`cold CLI, ${treeName} (${markdownFiles(planning).length} files)`, `${seconds(subject.wallMs)} (cpu ${seconds(subject.cpuMs)})`,
    `remark parse alone ${seconds(anchor.wallMs)} (cpu ${seconds(anchor.cpuMs)})`,
    ratio(subject.wallMs, anchor.wallMs), ratio(subject.cpuMs, anchor.cpuMs), '<= 0.10x', subject.wallMs / anchor.wallMs <= 0.1)
}

if (haveTree && selected('remark')) {
  // Configurations by absolute path: the tree has no node_modules to resolve plugin names from.
  const configs = fs.mkdtempSync(path.join(os.tmpdir(), 'planlint-bench-remarkrc-'))
  const config = (name, module) => {
    const file = path.join(configs, `${name}.mjs`)
    fs.writeFileSync(file, `import plugin from ${JSON.stringify(module)}\nexport default {plugins: [plugin]}\n`)
    return file
  }
  const withPlanlint = config('planlint', path.join(repository, 'dist/src/index.js'))
  const parseOnly = config('frontmatter', path.join(repository, 'node_modules/remark-frontmatter/index.js'))
  try {
    const {subject, anchor} = compare(
      () => command([remarkBin, '.planning', '--frail', '--quiet', '--no-stdout', '--no-color', '--rc-path', withPlanlint], tree),
      () => command([remarkBin, '.planning', '--quiet', '--no-stdout', '--no-color', '--rc-path', parseOnly], tree)
    )
    row(`remark --frail with planlint, ${treeName}`, seconds(subject.wallMs), `remark alone ${seconds(anchor.wallMs)}`,
      ratio(subject.wallMs, anchor.wallMs), '', '<= 1.15x', subject.wallMs / anchor.wallMs <= 1.15)
  } finally {
    fs.rmSync(configs, {recursive: true, force: true})
  }
}

if (haveTree && selected('plans')) {
  const gsd = fs.mkdtempSync(path.join(os.tmpdir(), 'planlint-bench-gsd-'))
  try {
    const pack = spawnSync('npm', ['pack', 'get-shit-done-cc', '--silent'], {cwd: gsd, encoding: 'utf8'})
    const tarball = pack.stdout.trim().split('\n').at(-1)
    if (pack.status !== 0 || !tarball) throw new Error(`npm pack get-shit-done-cc failed: ${pack.stderr}`)
    spawnSync('tar', ['xzf', tarball], {cwd: gsd})
    const verifyModule = path.join(gsd, 'package/get-shit-done/bin/lib/verify.cjs')
    const version = JSON.parse(fs.readFileSync(path.join(gsd, 'package/package.json'), 'utf8')).version
    const {subject, anchor} = compare(
      () => child('plans-planlint', [planning]),
      () => child('plans-gsd', [planning, verifyModule])
    )
    row(`plans only, in-process, ${treeName} (${subject.plans} plans)`, seconds(subject.inProcessMs), `GSD ${version} verify plan-structure ${seconds(anchor.inProcessMs)}`,
      ratio(subject.inProcessMs, anchor.inProcessMs), '', '<= 1x', subject.inProcessMs <= anchor.inProcessMs)
  } finally {
    fs.rmSync(gsd, {recursive: true, force: true})
  }
}

if (haveTree && selected('staged')) {
  const plans = markdownFiles(planning).filter((file) => /-PLAN\.md$/.test(file))
  const plan = path.relative(tree, plans.at(-1))
  const version = []
  const {subject, anchor} = compare(
    () => command([cliBin, '--format', 'json', plan], tree),
    () => {
      // The CLI's own floor (bin.js loading only what `--version` needs), in the same interleaving.
      version.push(command([cliBin, '--version'], tree).wallMs)
      return command(['-e', ''], tree)
    }
  )
  row(`one staged plan, fresh process, ${treeName} (${plans.length} plans)`, `${Math.round(subject.wallMs)} ms`, `node start-up ${Math.round(anchor.wallMs)} ms, --version ${Math.round(median(version))} ms`,
    ratio(subject.wallMs, anchor.wallMs), '', '<= 400 ms cold', subject.wallMs <= 400)
}

if (selected('rss')) {
  if (values['whole-corpus'] && fs.existsSync(corpus)) {
    const trees = fs.readdirSync(corpus).filter((name) => fs.existsSync(path.join(corpus, name, '.planning')))
    const result = child('cli', ['--format', 'json', ...trees.map((name) => path.join(name, '.planning'))], corpus)
    row(`peak RSS, all ${trees.length} corpus trees in one call`, `${Math.round(result.rssMb)} MB`, '', '', '', '<= 250 MB', result.rssMb <= 250)
  } else if (coldRss !== undefined) {
    row(`peak RSS, cold CLI on ${treeName} (all trees: --whole-corpus)`, `${Math.round(coldRss)} MB`, '', '', '', '<= 250 MB', coldRss <= 250)
  }
}

if (haveTree && selected('graph')) {
  // Issue 14: drawing a tree's graph costs no more than linting it; both fresh processes of the built CLI.
  const {subject, anchor} = compare(
    () => command([cliBin, 'graph', '.planning'], tree),
    () => command([cliBin, '--format', 'json', '.planning'], tree)
  )
  row(`planlint graph, ${treeName}`, seconds(subject.wallMs), `planlint lint ${seconds(anchor.wallMs)}`,
    ratio(subject.wallMs, anchor.wallMs), '', '<= 1x', subject.wallMs <= anchor.wallMs)
}

const pad = (number) => String(number).padStart(2, '0')
const plansPerPhase = 25

/** Plan `number` of `phase`: a chain waits for the plan before it (and the first plan of the phase before); a dense one for every plan of the phase before. */
function syntheticPlan(phase, number, shape) {
  const id = `${pad(phase)}-${pad(number)}`
  const dependsOn =
    shape === 'dense'
      ? phase > 1 ? Array.from({length: plansPerPhase}, (_, index) => `${pad(phase - 1)}-${pad(index + 1)}`) : []
      : [number > 1 ? `${pad(phase)}-${pad(number - 1)}` : undefined, phase > 1 ? `${pad(phase - 1)}-01` : undefined].filter(Boolean)
  const wave = shape === 'dense' ? phase : number
  return `---
phase: ${pad(phase)}-bench
plan: ${pad(number)}
type: execute
wave: ${wave}
depends_on: ${JSON.stringify(dependsOn)}
files_modified: [src/bench/${id}.ts]
autonomous: true
must_haves:
  truths: ["step ${id} works"]
  artifacts: []
  key_links: []
---

# Plan ${id}

<task type="auto">
  <name>Build step ${id}</name>
  <files>src/bench/${id}.ts</files>
  <action>Create src/bench/${id}.ts exporting step${phase}x${number}.</action>
  <verify>npm test -- bench passes</verify>
  <done>Step ${id} works</done>
</task>
`
}

function syntheticTree(plans, shape) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'planlint-bench-'))
  for (let index = 0; index < plans; index++) {
    const phase = Math.floor(index / plansPerPhase) + 1
    const number = (index % plansPerPhase) + 1
    const folder = path.join(root, '.planning', 'phases', `${String(phase).padStart(3, '0')}-bench`)
    fs.mkdirSync(folder, {recursive: true})
    fs.writeFileSync(path.join(folder, `${pad(phase)}-${pad(number)}-PLAN.md`), syntheticPlan(phase, number, shape))
  }
  return root
}

if (selected('synthetic')) {
  const sizes = values.sizes.split(',').map(Number)
  for (const shape of ['chain', 'dense']) {
    const perPlan = []
    const rss = []
    for (const size of sizes) {
      const root = syntheticTree(size, shape)
      try {
        const {subject, anchor} = compare(
          () => child('cli', ['--format', 'json', '.planning'], root),
          () => child('parse', [path.join(root, '.planning')])
        )
        perPlan.push(subject.inProcessMs / size)
        rss.push(subject.rssMb)
        row(`synthetic ${shape}, ${size} plans`, `${seconds(subject.inProcessMs)} in-process, ${Math.round(subject.rssMb)} MB`,
          `remark parse alone ${seconds(anchor.inProcessMs)}`, ratio(subject.inProcessMs, anchor.inProcessMs), ratio(subject.cpuMs, anchor.cpuMs), '', undefined)
      } finally {
        fs.rmSync(root, {recursive: true, force: true})
      }
    }
    const growth = perPlan.at(-1) / perPlan[0]
    row(`synthetic ${shape}: cost per plan, ${sizes.at(-1)} over ${sizes[0]} plans`, `${perPlan.at(-1).toFixed(2)} ms/plan`, `${perPlan[0].toFixed(2)} ms/plan`,
      `${growth.toFixed(2)}x`, '', '<= 1.5x', growth <= 1.5)
    row(`synthetic ${shape}: peak RSS, ${sizes.at(-1)} over ${sizes[0]} plans`, `${Math.round(rss.at(-1))} MB`, `${Math.round(rss[0])} MB`,
      ratio(rss.at(-1), rss[0]), '', 'flat (<= 1.5x)', rss.at(-1) / rss[0] <= 1.5)
  }
}

if (haveTree && selected('lsp')) {
  const result = await languageServerLatency(planning)
  // A backlog shows as latency that grows while the typing goes on: the last edits wait longer than the run as a whole.
  const backlog = result.lastP95 > Math.max(50, 1.5 * result.p95)
  row(`language server change to diagnostics, ${result.edits} one-character edits 100 ms apart, ${Math.round(result.bytes / 1000)} KB plan of ${treeName} (${result.plans} plans)`,
    `p50 ${Math.round(result.p50)} ms, p95 ${Math.round(result.p95)} ms; ${result.lints} of ${result.edits} versions linted and published, ${result.newestOnly ? 'each newer than the last' : 'NOT in order: a stale version was linted'}; ` +
      `backlog: ${backlog ? `grows (last 10 edits p95 ${Math.round(result.lastP95)} ms)` : 'none'}`,
    `remark parse of the same texts p50 ${result.parseP50.toFixed(1)} ms, p95 ${result.parseP95.toFixed(1)} ms (cpu ${result.parseCpuMean.toFixed(1)} ms each); server cpu ${Math.round(result.cpuPerLint)} ms per version published`,
    ratio(result.p95, result.parseP95), ratio(result.cpuPerLint, result.parseCpuMean),
    'p95 <= 50 ms (on a loaded machine: <= 2x the parse), newest version only, no backlog',
    (result.p95 <= 50 || result.p95 <= 2 * result.parseP95) && result.newestOnly && !backlog)
}

/** A process's CPU time so far (user + system, from /proc; NaN where there is none). */
function processCpuMs(pid) {
  try {
    // The fields after the command's closing parenthesis: utime and stime are the 12th and 13th, in clock ticks.
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').at(-1).split(' ')
    const ticksPerSecond = Number(spawnSync('getconf', ['CLK_TCK'], {encoding: 'utf8'}).stdout) || 100
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond
  } catch {
    return Number.NaN
  }
}

/**
 * The language server as an editor drives it: opens the plan nearest 20 KB,
 * sends `edits` one-character changes `gapMs` apart, and times each change to
 * the diagnostics published for it (or, when the server skipped a version
 * because a newer one came, for the newer one). Its anchor, in this process:
 * remark parsing (with frontmatter) the same texts.
 */
async function languageServerLatency(planningFolder, edits = 50, gapMs = 100) {
  const {spawn} = await import('node:child_process')
  const {pathToFileURL} = await import('node:url')
  const protocol = await import('vscode-languageserver-protocol/node')
  const {remark} = await import('remark')
  const {default: remarkFrontmatter} = await import('remark-frontmatter')
  const plans = markdownFiles(planningFolder).filter((file) => /-PLAN\.md$/.test(file))
  const planPath = plans.map((file) => [file, Math.abs(fs.statSync(file).size - 20_000)]).sort((a, b) => a[1] - b[1])[0][0]
  const root = path.dirname(planningFolder)
  const server = spawn(process.execPath, [path.join(repository, 'dist/src/lsp/bin.js'), '--stdio'], {cwd: root, stdio: ['pipe', 'pipe', 'ignore']})
  const connection = protocol.createProtocolConnection(new protocol.StreamMessageReader(server.stdout), new protocol.StreamMessageWriter(server.stdin))
  const sentAt = new Map()
  const latencies = new Map()
  const published = []
  let waiting
  connection.onNotification(protocol.PublishDiagnosticsNotification.type, ({version}) => {
    const now = performance.now()
    published.push(version)
    for (const [sent, at] of sentAt) if (sent <= version && !latencies.has(sent)) latencies.set(sent, now - at)
    waiting?.()
  })
  connection.listen()
  const rootUri = pathToFileURL(root).href
  await connection.sendRequest(protocol.InitializeRequest.type, {processId: process.pid, rootUri, workspaceFolders: [{uri: rootUri, name: 'bench'}], capabilities: {}})
  await connection.sendNotification(protocol.InitializedNotification.type, {})
  const uri = pathToFileURL(planPath).href
  let text = fs.readFileSync(planPath, 'utf8')
  const untilPublished = (version) =>
    new Promise((resolve) => {
      const check = () => (latencies.has(version) || published.includes(version) ? resolve() : (waiting = check))
      check()
    })
  sentAt.set(1, performance.now())
  await connection.sendNotification(protocol.DidOpenTextDocumentNotification.type, {textDocument: {uri, languageId: 'markdown', version: 1, text}})
  await untilPublished(1)
  latencies.clear()
  sentAt.clear()
  published.length = 0
  const cpuBefore = processCpuMs(server.pid)
  const texts = []
  // Typing at the end of the body: one character per edit, as an editor's incremental change.
  const lines = text.split('\n')
  const line = lines.length - 1
  for (let index = 0; index < edits; index++) {
    const version = index + 2
    const character = lines[line].length
    lines[line] += 'x'
    text += 'x'
    sentAt.set(version, performance.now())
    await connection.sendNotification(protocol.DidChangeTextDocumentNotification.type, {
      textDocument: {uri, version},
      contentChanges: [{range: {start: {line, character}, end: {line, character}}, text: 'x'}]
    })
    texts.push(text)
    await sleep(gapMs)
  }
  await untilPublished(edits + 1)
  const serverCpuMs = processCpuMs(server.pid) - cpuBefore
  connection.dispose()
  server.kill()
  // The anchor after the edits, so that parsing here does not slow down the typing.
  const parser = remark().use(remarkFrontmatter, ['yaml'])
  const parseCpuMs = []
  const parseMs = texts.map((edited) => {
    const start = performance.now()
    const cpu = process.cpuUsage()
    parser.parse(edited)
    const used = process.cpuUsage(cpu)
    parseCpuMs.push((used.user + used.system) / 1000)
    return performance.now() - start
  })
  const percentile = (numbers, share) => [...numbers].sort((a, b) => a - b)[Math.min(numbers.length - 1, Math.floor(share * numbers.length))]
  const all = [...latencies.entries()].sort((a, b) => a[0] - b[0]).map(([, ms]) => ms)
  return {
    edits,
    plans: plans.length,
    bytes: text.length,
    p50: percentile(all, 0.5),
    p95: percentile(all, 0.95),
    lastP95: percentile(all.slice(-10), 0.95),
    // What the server spent on the burst (every lint it started, finished or not), per version it published; and the parse's CPU time.
    cpuPerLint: serverCpuMs / published.length,
    parseCpuMean: parseCpuMs.reduce((sum, ms) => sum + ms, 0) / parseCpuMs.length,
    parseP50: percentile(parseMs, 0.5),
    parseP95: percentile(parseMs, 0.95),
    lints: published.length,
    // Each published version is newer than the one before (none twice): nothing stale is linted after a newer text arrived.
    newestOnly: published.every((version, index) => index === 0 || version > published[index - 1])
  }
}

if (haveTree && (selected('cache') || selected('staged-cache'))) {
  // A copy, so that the edit and the cache file never touch the corpus.
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'planlint-bench-cache-'))
  const cacheFile = path.join(copy, 'planlintcache')
  fs.cpSync(planning, path.join(copy, '.planning'), {recursive: true})
  const cached = ['--format', 'json', '--cache', '--cache-location', cacheFile]
  const plans = markdownFiles(path.join(copy, '.planning')).filter((file) => /-PLAN\.md$/.test(file))
  const edited = plans[Math.floor(plans.length / 2)]
  try {
    if (selected('cache')) {
      const colds = []
      const reruns = []
      for (let run = 0; run < runs; run++) {
        fs.rmSync(cacheFile, {force: true})
        colds.push(child('cli', [...cached, '.planning'], copy))
        // An edit of the plan's body, as an author or agent makes between runs.
        fs.appendFileSync(edited, `\nA note added between runs (${run}).\n`)
        reruns.push(child('cli', [...cached, '.planning'], copy))
      }
      const cold = {wallMs: median(colds.map((r) => r.wallMs)), inProcessMs: median(colds.map((r) => r.inProcessMs))}
      const rerun = {wallMs: median(reruns.map((r) => r.wallMs)), inProcessMs: median(reruns.map((r) => r.inProcessMs)), cpuMs: median(reruns.map((r) => r.cpuMs))}
      row(`--cache re-run after editing one plan, ${treeName}`, `${Math.round(rerun.wallMs)} ms wall, ${Math.round(rerun.inProcessMs)} ms in-process`,
        `cold --cache run ${seconds(cold.wallMs)} wall, ${seconds(cold.inProcessMs)} in-process`, ratio(rerun.wallMs, cold.wallMs),
        `in-process ${ratio(rerun.inProcessMs, cold.inProcessMs)}`, '<= 0.02x', rerun.wallMs / cold.wallMs <= 0.02)
    }
    if (selected('staged-cache')) {
      const plan = plans.at(-1)
      const relative = path.relative(copy, plan)
      const warm = []
      const edited = []
      const cold = []
      const start = []
      for (let run = 0; run < runs; run++) {
        fs.rmSync(cacheFile, {force: true})
        cold.push(command([cliBin, ...cached, relative], copy).wallMs)
        // The cache as a run over the whole tree leaves it, then the hook's or pre-commit's one-file run.
        command([cliBin, ...cached, '.planning'], copy)
        warm.push(command([cliBin, ...cached, relative], copy).wallMs)
        // The plan staged after an edit: linted again, its siblings' facts read from the cache.
        fs.appendFileSync(plan, `\nA note added before the commit (${run}).\n`)
        edited.push(command([cliBin, ...cached, relative], copy).wallMs)
        start.push(command(['-e', ''], copy).wallMs)
      }
      row(`one staged plan, fresh process, --cache, ${treeName}`, `warm ${Math.round(median(warm))} ms, edited ${Math.round(median(edited))} ms, cold ${Math.round(median(cold))} ms`,
        `node start-up ${Math.round(median(start))} ms`, `warm ${ratio(median(warm), median(start))}, edited ${ratio(median(edited), median(start))}, cold ${ratio(median(cold), median(start))}`, '',
        '<= 150 ms warm, <= 400 ms cold', median(warm) <= 150 && median(cold) <= 400)
    }
  } finally {
    fs.rmSync(copy, {recursive: true, force: true})
  }
}

if (selected('concurrency') && fs.existsSync(corpus)) {
  const trees = fs.readdirSync(corpus).filter((name) => fs.existsSync(path.join(corpus, name, '.planning')))
  const chosen = values['corpus-trees'] ? trees.slice(0, Number(values['corpus-trees'])) : trees
  const reports = fs.mkdtempSync(path.join(os.tmpdir(), 'planlint-bench-concurrency-'))
  const report = (name) => path.join(reports, `${name}.json`)
  const args = (name, extra) => [cliBin, '--format', 'json', '--output-file', report(name), ...extra, ...chosen.map((name) => path.join(name, '.planning'))]
  try {
    const {subject, anchor} = compare(() => command(args('threads', ['--concurrency', '2']), corpus), () => command(args('single', []), corpus))
    const identical = fs.readFileSync(report('threads'), 'utf8') === fs.readFileSync(report('single'), 'utf8')
    row(`--concurrency 2, ${chosen.length} corpus trees`, `${seconds(subject.wallMs)}, output ${identical ? 'identical' : 'DIFFERENT'}`, `one thread ${seconds(anchor.wallMs)}`,
      ratio(subject.wallMs, anchor.wallMs), '', '<= 0.6x, identical output', identical && subject.wallMs / anchor.wallMs <= 0.6)
  } finally {
    fs.rmSync(reports, {recursive: true, force: true})
  }
}

const [load] = os.loadavg()
const header = ['measurement', 'planlint', 'anchor', 'ratio (wall)', 'ratio (cpu)', 'goal', 'met']
const table = [header, header.map(() => '---'), ...rows.map((entry) => [entry.measurement, entry.subject, entry.anchor, entry.wallRatio, entry.cpuRatio, entry.goal, entry.met])]
console.log(`planlint bench: median of ${runs} run(s) each, node ${process.version}, ${os.availableParallelism()} cores, load average ${load.toFixed(1)}\n`)
console.log(table.map((cells) => `| ${cells.join(' | ')} |`).join('\n'))
