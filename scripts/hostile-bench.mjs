#!/usr/bin/env node
// planlint on hostile input (issue 13's tables): for each case, the time the
// CLI takes on a plan made for the purpose, at 1 MB (or at the size the issue
// states for tree cases), in this process after a warm-up run, so that start-up
// is not counted. Each must be under 2 s on the project's 2-core machines; a
// file over the size cap answers at once. Prints wall and CPU time (on a
// shared machine CPU time is the steady one, and the one checked) and exits 1
// when a case is over its limit or exits 2. The checked time is the case's
// first run in the process, as a CLI run would have it; the same case run
// again shows how much of that was V8 compiling planlint's code on first use
// (`warm CPU`), which a long-lived process (the language server, ESLint over
// a tree) pays once.
//
// Usage: npm run build && node scripts/hostile-bench.mjs [--only NAME,...] [--size BYTES]
import {Buffer} from 'node:buffer'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {performance} from 'node:perf_hooks'
import {fileURLToPath} from 'node:url'
import {parseArgs} from 'node:util'

const repository = fileURLToPath(new URL('..', import.meta.url))
const {main} = await import(path.join(repository, 'dist/src/cli/main.js'))

const {values} = parseArgs({options: {only: {type: 'string'}, size: {type: 'string', default: String(1 << 20)}}})
const size = Number(values.size)
const limitMs = 2000

/** `unit` repeated to about `bytes` characters. */
const fill = (unit, bytes = size) => unit.repeat(Math.max(1, Math.ceil(bytes / unit.length)))

const frontmatter = (extra = '') => `---
phase: 01-storage
plan: 01
type: execute
wave: 1
depends_on: []
files_modified: ["src/storage.ts"]
autonomous: false
${extra}---

`
const task = (type, body) => `<task type="${type}">
  <name>Check the bucket</name>
  <files>src/storage.ts</files>
${body}
</task>
`
const plan = (body, extra) => frontmatter(extra) + body

/** One case: a plan's text, or files of a tree; `fix` runs `--fix`. */
const cases = [
  {name: 'allow comment never closed (spaces)', text: () => plan(`<!-- planner-region-allow: ${fill(' ', size / 2)}r${fill(' ', size / 2)}\n`)},
  {name: 'allow comment never closed (tabs)', text: () => plan(`<!-- planner-discipline-allow: ${fill('\t', size / 2)}r${fill('\t', size / 2)}\n`)},
  {name: '`{{{…*,,,` glob in files_modified', text: () => plan('Text.\n', `extra_files: ["${fill('{', 20_000)}*${fill(',', 20_000)}"]\n`), note: 'frontmatter under the 64 KiB cap'},
  {name: '`{{{…*,,,` glob in <files>', text: () => plan(task('auto', `  <action>Do it.</action>\n  <files>${fill('{', size / 2)}*${fill(',', size / 2)}</files>`))},
  {name: 'long line: human-verify command start', text: () => plan(task('checkpoint:human-verify', `  <how-to-verify>Run ${fill('npx ')}</how-to-verify>`))},
  {name: 'long line: human-verify command end', text: () => plan(task('checkpoint:human-verify', `  <how-to-verify>\`npm run ${fill('a ')}</how-to-verify>`))},
  {name: 'long line: grep-count matcher', text: () => plan(task('auto', `  <verify>${fill('grep -c -c ')}</verify>`))},
  {name: 'long line: decision resume-signal list', text: () => plan(task('checkpoint:decision', `  <decision>Pick</decision>\n  <resume-signal>Select: ${fill('a or , ')}</resume-signal>`))},
  {name: 'long line: human-action sentences', text: () => plan(task('checkpoint:human-action', `  <action>${fill('Run. a. ')}</action>`))},
  {name: 'long line: human-action commands', text: () => plan(task('checkpoint:human-action', `  <action>${fill('Run `make a`. ')}</action>`))},
  {name: 'long line: human-action spans', text: () => plan(task('checkpoint:human-action', `  <action>${fill('`npm test` ')}</action>`))},
  {name: 'long line: fence line with lone CR', text: () => plan(`${fill('```\r ')}\n`)},
  {name: 'long line: negative-grep command span', text: () => plan(task('auto', `  <verify>${fill("! grep -c 'X' f ")}</verify>`))},
  {name: 'long line: specific-verification target', text: () => plan(task('auto', `  <verify>${fill('a.b/c.d-e/')}</verify>`))},
  {name: 'long line: awk region check', text: () => plan(task('auto', `  <verify>${fill("awk '/a/,/b/' f | ")}</verify>`))},
  {name: 'long line: paths in one sentence', text: () => plan(task('auto', `  <action>${fill('- @src/a/b.ts is not modified, see src/c/d.ts ')}</action>`))},
  {name: 'long line: files pointed to, clause after clause', text: () => plan(task('auto', `  <files>scripts/build</files>\n  <action>${fill('see scripts/build and see src/storage.ts; update it; ')}</action>`))},
  {name: 'long line: one path naming a file again and again', text: () => plan(task('auto', `  <files>src/a/b.ts</files>\n  <action>${fill('src/a/b.ts/')} and update it</action>`))},
  {name: '16,000 suppression comments', text: () => plan(Array.from({length: 16_000}, () => '<!-- planlint-disable-next-line task-markup -->\n<task>\n').join(''))},
  {name: '50,000 suppression comments', text: () => plan(Array.from({length: 50_000}, () => '<!-- planlint-disable-next-line task-markup -->\n<task>\n').join(''))},
  {name: '4,000 fixable findings (--fix)', fix: true, text: () => plan(fixable(4000))},
  {name: '16,000 fixable findings (--fix)', fix: true, text: () => plan(fixable(16_000))},
  {name: '5,000 nested elements', text: () => plan(task('auto', `  <action>${'<verify>'.repeat(5000)}x${'</verify>'.repeat(5000)}</action>`))},
  {name: '3,000-deep YAML', text: () => `---\nphase: 01\nplan: 01\ndeep:\n${'- '.repeat(3000)}x\n---\n\nText.\n`},
  {name: '1 MB plan', text: () => plan(fill(task('auto', '  <action>Create the bucket with `npm run setup`.</action>\n  <verify>npm test -- storage passes</verify>\n  <done>The bucket exists</done>') + '\n'))},
  {name: '10 MB plan', text: () => plan(fill(task('auto', '  <action>Create the bucket.</action>\n  <verify>npm test passes</verify>\n  <done>It exists</done>') + '\n', 10 * size)), note: 'over the 5 MB size cap once the CLI has it'}
]

/** Checkpoint tasks whose `auto_select` names no option but one a letter away: each a fix. */
function fixable(count) {
  return Array.from(
    {length: count},
    (_, index) => `<task type="checkpoint:decision" gate="blocking" auto_select="opton-${index}">\n  <decision>Pick</decision>\n  <options><option id="option-${index}"><name>A</name></option><option id="other-${index}"><name>B</name></option></options>\n  <resume-signal>Select: option-${index} or other-${index}</resume-signal>\n</task>\n`
  ).join('')
}

async function time(text, fix) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'planlint-hostile-'))
  try {
    const folder = path.join(root, '.planning/phases/01-storage')
    fs.mkdirSync(folder, {recursive: true})
    fs.writeFileSync(path.join(folder, '01-01-PLAN.md'), text)
    const io = {cwd: root, stdout: () => {}, stderr: () => {}, isTTY: false}
    const started = performance.now()
    const cpu = process.cpuUsage()
    const code = await main(['--format', 'json', ...(fix ? ['--fix'] : []), '.planning'], io)
    const used = process.cpuUsage(cpu)
    return {ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000, code}
  } finally {
    fs.rmSync(root, {recursive: true, force: true})
  }
}

const only = values.only?.split(',')
await time(plan('Warm-up.\n'), false)
const rows = []
for (const entry of cases) {
  if (only && !only.some((name) => entry.name.includes(name))) continue
  const text = entry.text()
  const {ms, cpuMs, code} = await time(text, entry.fix)
  const warm = await time(text, entry.fix)
  rows.push({name: entry.name, bytes: Buffer.byteLength(text), ms, cpuMs, warmCpuMs: warm.cpuMs, code, ok: cpuMs < limitMs && code !== null && code < 2, note: entry.note ?? ''})
}

const kb = (bytes) => (bytes >= 1 << 20 ? `${(bytes / (1 << 20)).toFixed(1)} MB` : `${Math.round(bytes / 1024)} KB`)
console.log(`load average ${os.loadavg()[0].toFixed(1)} on ${os.availableParallelism()} cores`)
console.log('| case | size | wall | CPU | warm CPU | exit | CPU under 2 s |')
console.log('|---|---|---|---|---|---|---|')
const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`
for (const row of rows) console.log(`| ${row.name}${row.note ? ` (${row.note})` : ''} | ${kb(row.bytes)} | ${seconds(row.ms)} | ${seconds(row.cpuMs)} | ${seconds(row.warmCpuMs)} | ${row.code} | ${row.ok ? 'yes' : '**no**'} |`)
process.exitCode = rows.every((row) => row.ok) ? 0 : 1
