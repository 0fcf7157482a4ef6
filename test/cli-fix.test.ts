import {spawn, spawnSync, type ChildProcess} from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import {parseFrontmatter} from '../src/model/frontmatter.js'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {cliBin, installPlanlint, planlint as planlintIn, planlintInProcess, repository} from './support/cli.js'
import {readTree as snapshot, removeTree, writeTree} from './support/tree.js'

const fixtures = path.join(repository, 'test/fixtures/fix')
const phase = '.planning/phases/01-storage'
/** The fixture plan that the test turns into CRLF before fixing. */
const crlfPlan = `${phase}/01-02-PLAN.md`
let sandbox: string

const planlint = (...args: string[]) => planlintIn(sandbox, ...args)
/** The same CLI in this process, where a real process adds nothing (the first test and the user-rule test keep it). */
const cli = (...args: string[]) => planlintInProcess(sandbox, ...args)

const toCrlf = (text: string) => text.replace(/\r?\n/g, '\r\n')

beforeEach(() => {
  sandbox = writeTree([], 'planlint-fix-')
  fs.cpSync(path.join(fixtures, 'before'), sandbox, {recursive: true})
  const crlf = path.join(sandbox, crlfPlan)
  fs.writeFileSync(crlf, toCrlf(fs.readFileSync(crlf, 'utf8')))
})

afterEach(() => removeTree(sandbox))

describe('planlint --fix', () => {
  it('turns the before tree into the after tree, keeps CRLF and modes, and leaves valid YAML', () => {
    fs.chmodSync(path.join(sandbox, `${phase}/01-01-PLAN.md`), 0o640)
    const {code, stdout, stderr} = planlint('--fix', '--format', 'json')
    expect(stderr).toBe('planlint: applied 6 fixes to 4 files\n')
    const expected = snapshot(path.join(fixtures, 'after'))
    expected.set(crlfPlan, toCrlf(expected.get(crlfPlan)!))
    expect(snapshot(sandbox)).toEqual(expected)
    expect(fs.statSync(path.join(sandbox, `${phase}/01-01-PLAN.md`)).mode & 0o777).toBe(0o640)
    for (const [file, text] of snapshot(sandbox)) {
      const frontmatter = parseFrontmatter(text)
      if (frontmatter && !file.endsWith('01-03-PLAN.md')) expect(frontmatter.errors, file).toEqual([])
    }
    // What remains is what has no safe fix: the YAML error itself, and `autonomous` in a plan whose YAML does not parse.
    const results = JSON.parse(stdout) as Array<{filePath: string; messages: Array<{ruleId: string; line: number}>}>
    const remaining = results.flatMap((result) => result.messages.map((message) => `${path.basename(result.filePath)}:${message.line} ${message.ruleId}`))
    expect(remaining).toEqual(['01-03-PLAN.md:12 frontmatter-schema', '01-03-PLAN.md:13 autonomous-flag'])
    expect(code).toBe(1)
  })

  it('changes nothing on a second run', async () => {
    await cli('--fix')
    const once = snapshot(sandbox)
    const second = await cli('--fix')
    expect(second.stderr).toBe('')
    expect(snapshot(sandbox)).toEqual(once)
  })

  it('reports what a plain run of the fixed tree reports, every rule in its order, also where --rule leaves fixes', async () => {
    // The fix loop runs the fixing rules first and the others only on text with no fix left: its report must not show it.
    fs.writeFileSync(
      path.join(sandbox, `${phase}/01-09-PLAN.md`),
      `---\nphase: 01-storage\nplan: 09\ntype: execute\nwave: 1\ndepends_on: []\nautonomous: false\n---\n\n<task id="t1" type="checkpoint:decision" gate="blocking" auto_select="opton-a">\n  <decision>Pick</decision>\n  <options><option id="option-a"><name>A</name></option><option id="other"><name>B</name></option></options>\n  <resume-signal>Select: option-a or othr</resume-signal>\n</task>\n\n<task id="t1" type="auto">\n  <name>Make it</name>\n  <action>Write it.</action>\n  <verify>npm test</verify>\n  <done>It is made.</done>\n</task>\n`
    )
    const messages = (stdout: string) =>
      (JSON.parse(stdout) as Array<{filePath: string; messages: Array<{ruleId: string; line: number; column: number; message: string}>}>).map((result) => [
        path.relative(sandbox, result.filePath),
        result.messages.map((message) => `${message.line}:${message.column} ${message.ruleId} ${message.message}`)
      ])
    const limited = messages((await cli('--fix', '--rule', 'completion-marker', '--format', 'json')).stdout)
    expect(limited).toEqual(messages((await cli('--format', 'json')).stdout))
    const fixed = messages((await cli('--fix', '--format', 'json')).stdout)
    const plain = messages((await cli('--format', 'json')).stdout)
    expect(fixed).toEqual(plain)
    const ruleIds = plain.find(([file]) => file === `${phase}/01-09-PLAN.md`)![1]
    expect(ruleIds.some((message) => message.includes(' unique-ids '))).toBe(true)
    expect(ruleIds.some((message) => message.includes(' auto-select-option '))).toBe(false)
  })

  it('renumbers a whole chain of waves in one run, though each plan is told only once the plans it waits for are right', async () => {
    const chain = path.join(sandbox, '.planning/phases/03-chain')
    fs.mkdirSync(chain, {recursive: true})
    const plan = (number: number, wave: number) =>
      fs.writeFileSync(path.join(chain, `03-0${number}-PLAN.md`), `---\nwave: ${wave}\ndepends_on: [${number > 1 ? `"03-0${number - 1}"` : ''}]\n---\n`)
    plan(1, 1)
    plan(2, 1)
    plan(3, 2)
    plan(4, 3)
    const waveMessages = async () =>
      (JSON.parse((await cli('--format', 'json', '.planning/phases/03-chain')).stdout) as Array<{messages: Array<{ruleId: string}>}>).flatMap((result) => result.messages).filter((message) => message.ruleId === 'wave-order').length
    expect(await waveMessages()).toBe(1)
    await cli('--fix', '.planning/phases/03-chain')
    const waves = [1, 2, 3, 4].map((number) => /wave: (\d+)/.exec(fs.readFileSync(path.join(chain, `03-0${number}-PLAN.md`), 'utf8'))![1])
    expect(waves).toEqual(['1', '2', '3', '4'])
    expect(await waveMessages()).toBe(0)
  })

  it('never fixes task markup quoted in a code fence', async () => {
    await cli('--fix')
    const text = fs.readFileSync(path.join(sandbox, `${phase}/01-01-PLAN.md`), 'utf8')
    expect(text).toContain('```xml\n<task type="checkpoint:decision" auto_select="s3-compatable">')
    expect(text).toContain('gate="blocking" auto_select="s3-compatible">')
  })

  it('--fix-dry-run prints a unified diff and writes nothing', async () => {
    const before = snapshot(sandbox)
    const {code, stdout, stderr} = await cli('--fix-dry-run', `${phase}/01-07-SUMMARY.md`)
    expect(stdout).toContain(`--- a/${phase}/01-07-SUMMARY.md\n+++ b/${phase}/01-07-SUMMARY.md\n@@ -3,5 +3,5 @@\n`)
    expect(stdout).toContain('\n-## Research Complete\n+## RESEARCH COMPLETE\n')
    expect(stderr).toBe('planlint: would apply 1 fix to 1 file\n')
    expect(code).toBe(0)
    expect(snapshot(sandbox)).toEqual(before)
  })

  it('--fix-dry-run with --format json gives the fixed text as `output`, like ESLint', async () => {
    const {stdout} = await cli('--fix-dry-run', '--format', 'json', `${phase}/01-07-SUMMARY.md`)
    const [result] = JSON.parse(stdout) as Array<{output?: string; messages: unknown[]}>
    expect(result.output).toContain('## RESEARCH COMPLETE\n')
    expect(result.messages).toEqual([])
  })

  it('--rule applies only the named rules’ fixes', async () => {
    const {stderr} = await cli('--fix', '--rule', 'planlint/completion-marker')
    expect(stderr).toBe('planlint: applied 1 fix to 1 file\n')
    expect(fs.readFileSync(path.join(sandbox, `${phase}/01-01-PLAN.md`), 'utf8')).toContain('autonomous: "yes"')
    expect((await cli('--rule', 'autonomous-flag')).code).toBe(2)
    expect((await cli('--fix', '--rule', 'no-such-rule')).stderr).toContain('unknown rule `no-such-rule`')
  })

  it('exits 0 when fixing leaves no error', async () => {
    expect((await cli('--fix', `${phase}/01-01-PLAN.md`, `${phase}/01-02-PLAN.md`)).code).toBe(0)
    expect((await cli(`${phase}/01-01-PLAN.md`, `${phase}/01-02-PLAN.md`)).code).toBe(0)
  })

  it('leaves a file that is not UTF-8 as it was, says so, and exits 2', async () => {
    const latin1 = path.join(sandbox, `${phase}/01-01-PLAN.md`)
    const bytes = Buffer.concat([Buffer.from(fs.readFileSync(latin1, 'utf8').replace('Object storage', 'Object storage, caf'), 'latin1'), Buffer.from([0xe9, 0x0a])])
    fs.writeFileSync(latin1, bytes)
    const {code, stderr} = await cli('--fix', `${phase}/01-01-PLAN.md`)
    expect(code).toBe(2)
    expect(stderr).toContain(`could not write ${phase}/01-01-PLAN.md (the file changed on disk, or is not UTF-8 text); the file is unchanged`)
    expect(fs.readFileSync(latin1).equals(bytes)).toBe(true)
  })
})

describe('fix safety, end to end through a user rule', () => {
  it('drops fixes that would touch a code block, break the YAML or mix line endings, and keeps their messages', () => {
    // A plugin built with planlint's own `remarkRule`, whose fixes are all unsafe but one.
    installPlanlint(sandbox)
    fs.writeFileSync(
      path.join(sandbox, '.remarkrc.mjs'),
      `import planlint, {remarkRule} from 'planlint'
const unsafe = remarkRule({
  id: 'unsafe-fixes', description: 'Offers unsafe fixes.', severity: 'error', kinds: ['plan'], fixable: 'fix', defaultOptions: {},
  check({document, report}) {
    const fence = document.opaque.find((region) => region.kind === 'fenced')
    if (fence) report({message: 'code', range: fence.range, fix: {range: [fence.range[0] + 3, fence.range[0] + 6], text: 'js'}})
    const phase = document.frontmatter.entries.get('phase')
    report({message: 'yaml', range: phase.valueRange, fix: {range: phase.valueRange, text: '[01-storage'}})
    const end = document.text.length
    report({message: 'eol', range: [end, end], fix: {range: [end, end], text: '\\n<!-- end -->\\n'}})
    if (!document.text.includes('<!-- end -->')) report({message: 'safe', range: [end, end], fix: {range: [end, end], text: document.lines.eol + '<!-- end -->' + document.lines.eol}})
  }
})
export default {plugins: [planlint, [unsafe, ['error']]]}
`
    )
    const plan = path.join(sandbox, `${phase}/01-01-PLAN.md`)
    const before = toCrlf(fs.readFileSync(plan, 'utf8'))
    fs.writeFileSync(plan, before)
    const {stdout} = planlint('--fix', '--format', 'json', `${phase}/01-01-PLAN.md`)
    const after = fs.readFileSync(plan, 'utf8')
    expect(after).toContain('```xml\r\n')
    expect(after).toContain('phase: 01-storage\r\n')
    expect(after.replace(/\r\n/g, '')).not.toContain('\n')
    expect(after.endsWith('</task>\r\n\r\n<!-- end -->\r\n')).toBe(true)
    const [result] = JSON.parse(stdout) as Array<{messages: Array<{ruleId: string; message: string; fix?: unknown}>}>
    const left = result.messages.filter((message) => message.ruleId === 'unsafe-fixes')
    expect(left.map((message) => [message.message, message.fix])).toEqual([
      ['yaml', undefined],
      ['code', undefined],
      ['eol', undefined]
    ])
  })
})

describe('fixFiles from another working directory', () => {
  it('re-lints fixed files at their own paths, so cross-file rules see their tree', async () => {
    const {fixFiles} = await import('../src/fix.js')
    // A typo'd dependency that fixing does not touch, next to fixable problems.
    const plan = path.join(sandbox, `${phase}/01-01-PLAN.md`)
    fs.writeFileSync(plan, fs.readFileSync(plan, 'utf8').replace('depends_on: []', 'depends_on: ["01-09"]'))
    const run = await fixFiles({paths: ['.planning'], cwd: sandbox, preset: 'recommended'})
    const paths = run.files.map((file) => path.resolve(file.cwd, file.path))
    expect(new Set(paths).size).toBe(paths.length)
    expect(paths.every((filePath) => filePath.startsWith(sandbox + path.sep))).toBe(true)
    const fixedPlan = run.files.find((file) => path.resolve(file.cwd, file.path) === plan)!
    expect(fixedPlan.messages.map((message) => message.ruleId)).toEqual(['dependency-exists'])
    expect(run.fixed.map((entry) => path.relative(sandbox, entry.path)).sort()).toEqual([
      `${phase}/01-01-PLAN.md`,
      crlfPlan,
      `${phase}/01-07-SUMMARY.md`,
      '.planning/phases/02-sync/02-03-PLAN.md'
    ])
  })
})

describe('--fix keeps what the file is', () => {
  const plan = () => path.join(sandbox, `${phase}/01-01-PLAN.md`)
  const fixedMarker = 'auto_select="s3-compatible"'

  it('keeps the owner, group and mode of a file another user owns', async () => {
    fs.chownSync(plan(), 1234, 4321)
    fs.chmodSync(plan(), 0o640)
    expect((await cli('--fix', `${phase}/01-01-PLAN.md`)).code).toBe(0)
    const stats = fs.statSync(plan())
    expect([stats.uid, stats.gid, stats.mode & 0o7777]).toEqual([1234, 4321, 0o640])
    expect(fs.readFileSync(plan(), 'utf8')).toContain(fixedMarker)
  })

  it('writes in place, keeping the owner, when this user may write the file but not give it away', () => {
    // The CLI runs as `nobody`, who may write the file through its group but cannot chown a new file to its owner.
    fs.chmodSync(sandbox, 0o777)
    for (const entry of fs.readdirSync(sandbox, {recursive: true, withFileTypes: true})) {
      if (entry.isDirectory()) fs.chmodSync(path.join(entry.parentPath, entry.name), 0o777)
    }
    fs.chownSync(plan(), 1234, 65534)
    fs.chmodSync(plan(), 0o664)
    const result = spawnSync(process.execPath, [cliBin, '--fix', `${phase}/01-01-PLAN.md`], {cwd: sandbox, encoding: 'utf8', uid: 65534, gid: 65534, env: {...process.env, NO_COLOR: '1'}})
    expect(result.stderr).toBe('planlint: applied 2 fixes to 1 file\n')
    const stats = fs.statSync(plan())
    expect([stats.uid, stats.gid, stats.mode & 0o7777]).toEqual([1234, 65534, 0o664])
    expect(fs.readFileSync(plan(), 'utf8')).toContain(fixedMarker)
  })

  it('refuses a read-only file with a clear message and exit 2, and leaves it as it was', async () => {
    const before = fs.readFileSync(plan())
    fs.chmodSync(plan(), 0o444)
    const {code, stderr} = await cli('--fix', `${phase}/01-01-PLAN.md`)
    expect(stderr).toBe(`planlint: could not write ${phase}/01-01-PLAN.md (the file is read-only); the file is unchanged\n`)
    expect(code).toBe(2)
    expect(fs.readFileSync(plan()).equals(before)).toBe(true)
    expect(fs.statSync(plan()).mode & 0o7777).toBe(0o444)
  })

  it('fixes a hard-linked file through its own inode, so every name sees the fixed text', async () => {
    const other = path.join(sandbox, 'kept-copy.md')
    fs.linkSync(plan(), other)
    const inode = fs.statSync(plan()).ino
    expect((await cli('--fix', `${phase}/01-01-PLAN.md`)).code).toBe(0)
    expect(fs.statSync(plan()).ino).toBe(inode)
    expect(fs.statSync(plan()).nlink).toBe(2)
    expect(fs.readFileSync(other, 'utf8')).toContain(fixedMarker)
  })

  it('removes the temporary file a killed run left, and keeps one a live run is writing', async () => {
    const folder = path.dirname(plan())
    const stale = path.join(folder, '.01-01-PLAN.md.planlint-999999999-0123456789ab')
    const live = path.join(folder, `.01-02-PLAN.md.planlint-${process.pid}-0123456789ab`)
    const notOurs = path.join(folder, '.01-02-PLAN.md.backup')
    for (const file of [stale, live, notOurs]) fs.writeFileSync(file, 'partial')
    await cli('--fix')
    expect([stale, live, notOurs].map((file) => fs.existsSync(file))).toEqual([false, true, true])
  })
})

describe('--fix when it is killed, or runs twice at once', () => {
  const fileCount = 40
  /** Summaries whose completion marker is fixed (`## Research Complete` → `## RESEARCH COMPLETE`), in four phases, of different lengths. */
  const originals = new Map(
    Array.from({length: fileCount}, (_, index) => [
      `.planning/phases/0${1 + (index % 4)}-part/0${1 + (index % 4)}-${String(index).padStart(2, '0')}-SUMMARY.md`,
      `# Summary ${index}\n\n${'Notes on the work. '.repeat(1 + (index % 9) * 40)}\n\n## Research Complete\n\nDone.\n`
    ])
  )
  const fixedText = (text: string) => text.replace('## Research Complete', '## RESEARCH COMPLETE')
  /** A tree of the originals, and what the tests ask of it; each test has its own, so a test that timed out cannot touch the next one's. */
  function plantedTree() {
    const tree = writeTree([...originals].map(([file, text]) => ({path: file, text})), 'planlint-kill-')
    const read = (file: string) => fs.readFileSync(path.join(tree, file), 'utf8')
    return {
      tree,
      reset: () => {
        for (const [file, text] of originals) fs.writeFileSync(path.join(tree, file), text)
      },
      /** The files that are neither their original nor their fixed text. */
      torn: () => [...originals].filter(([file, text]) => read(file) !== text && read(file) !== fixedText(text)).map(([file]) => file),
      fixedCount: () => [...originals].filter(([file, text]) => read(file) === fixedText(text)).length,
      temporaries: () => fs.readdirSync(tree, {recursive: true}).map(String).filter((name) => name.includes('.planlint-')),
      start: () => spawn(process.execPath, [cliBin, '--fix'], {cwd: tree, stdio: 'ignore'}),
      /** Resolves when the first file of the tree is written (the run's write phase begins). */
      firstWrite: () =>
        new Promise<void>((resolve) => {
          const watcher = fs.watch(path.join(tree, '.planning'), {recursive: true}, () => {
            watcher.close()
            resolve()
          })
        })
    }
  }
  const exited = (child: ChildProcess) => new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  let planted: Array<ReturnType<typeof plantedTree>> = []
  afterEach(() => {
    for (const {tree} of planted) removeTree(tree)
    planted = []
  })

  /** A generator of fixed seed (mulberry32): the same kill times on every run of the test. */
  function seeded(seed: number) {
    return () => {
      seed = (seed + 0x6d2b79f5) | 0
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296
    }
  }

  /**
   * Kills runs of `--fix` on a tree of its own `kills` times, each at a time of the seeded `random` in the write phase,
   * and checks after each run that no file is torn. A kill counts when the run was still going just before it and
   * died of it; a run that had finished first is started again (at most 4 times a kill), and its time bounds the next
   * kill times. Returns the kills and the half-fixed trees seen.
   */
  async function killLane(kills: number, random: () => number) {
    const lane = plantedTree()
    planted.push(lane)
    const {reset, torn, fixedCount, start, firstWrite} = lane
    // A run to its end measures how long writing takes (beside the other lane); the kills fall anywhere in that time.
    const child = start()
    const began = firstWrite().then(() => performance.now())
    await exited(child)
    let writing = Math.max(20, performance.now() - (await began))
    expect(fixedCount()).toBe(fileCount)
    let killed = 0
    let partial = 0
    for (let kill = 0; kill < kills; kill++) {
      for (let attempt = 0; attempt < 5; attempt++) {
        reset()
        const victim = start()
        const done = exited(victim)
        const outcome = await Promise.race([done.then(() => 'exited'), firstWrite().then(() => 'writing')])
        let landed = false
        if (outcome === 'writing') {
          const wrote = performance.now()
          await new Promise((resolve) => setTimeout(resolve, random() * writing))
          const running = victim.exitCode === null && victim.signalCode === null
          if (running) victim.kill('SIGKILL')
          await done
          landed = running && victim.signalCode === 'SIGKILL'
          // A run that finished first wrote faster than the time measured (on a busy machine): the next kills fall within its time.
          if (!running) writing = Math.max(20, Math.min(writing, performance.now() - wrote))
        } else await done
        expect(torn()).toEqual([])
        const count = fixedCount()
        if (count > 0 && count < fileCount) partial++
        if (landed) {
          killed++
          break
        }
      }
    }
    return {lane, killed, partial}
  }

  it('leaves every file its original or its fixed text through 30 SIGKILLs, and the next run removes the temporary files', async () => {
    // Two lanes at once, each with its own tree and seed, 15 kills each.
    const lanes = await Promise.all([killLane(15, seeded(13)), killLane(15, seeded(14))])
    expect(lanes.map(({killed}) => killed)).toEqual([15, 15])
    // Most kills fell in the middle of the writes, so the test saw half-fixed trees.
    expect(lanes.reduce((sum, {partial}) => sum + partial, 0)).toBeGreaterThan(10)
    for (const {lane} of lanes) {
      await exited(lane.start())
      expect(lane.fixedCount()).toBe(fileCount)
      expect(lane.temporaries()).toEqual([])
    }
  }, 600_000)

  it('two runs at once: each file is only ever its original or its fixed text, and ends fixed', async () => {
    const lane = plantedTree()
    planted.push(lane)
    const {torn, fixedCount, temporaries, start} = lane
    const runs = [start(), start()]
    const codes = Promise.all(runs.map(exited))
    let finished = false
    void codes.then(() => (finished = true))
    const seen: string[] = []
    while (!finished) {
      seen.push(...torn())
      await new Promise((resolve) => setTimeout(resolve, 2))
    }
    expect(seen).toEqual([])
    expect(await codes).toEqual([0, 0])
    expect(fixedCount()).toBe(fileCount)
    expect(temporaries()).toEqual([])
  }, 60_000)
})
