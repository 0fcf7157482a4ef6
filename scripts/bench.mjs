#!/usr/bin/env node
// How fast planlint lints: a generated planning tree of `--phases` phases of
// `--plans` plans each (every plan waits for the one before it and for the
// first plan of the phase before, with a summary per plan), linted with the
// recommended preset; and, with --corpus DIR, each planning tree below DIR.
// Prints files per second for each. Performance goals live here, not in
// timed tests. Usage: node scripts/bench.mjs [--phases 20] [--plans 15] [--runs 3] [--corpus DIR]
// (`npm run build` first: it runs the built dist/.)
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {performance} from 'node:perf_hooks'
import {parseArgs} from 'node:util'
import {lintFiles} from '../dist/src/lint.js'

const {values} = parseArgs({
  options: {
    phases: {type: 'string', default: '20'},
    plans: {type: 'string', default: '15'},
    runs: {type: 'string', default: '3'},
    corpus: {type: 'string'}
  }
})
const phases = Number(values.phases)
const plansPerPhase = Number(values.plans)
const runs = Number(values.runs)

const pad = (number) => String(number).padStart(2, '0')

function plan(phase, number) {
  const id = `${pad(phase)}-${pad(number)}`
  const dependsOn = [number > 1 ? `${pad(phase)}-${pad(number - 1)}` : undefined, phase > 1 ? `${pad(phase - 1)}-01` : undefined].filter(Boolean)
  return `---
phase: ${pad(phase)}-bench
plan: ${pad(number)}
type: execute
wave: ${number}
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

function generatedTree() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'planlint-bench-'))
  for (let phase = 1; phase <= phases; phase++) {
    const folder = path.join(root, '.planning', 'phases', `${pad(phase)}-bench`)
    fs.mkdirSync(folder, {recursive: true})
    for (let number = 1; number <= plansPerPhase; number++) {
      fs.writeFileSync(path.join(folder, `${pad(phase)}-${pad(number)}-PLAN.md`), plan(phase, number))
      fs.writeFileSync(path.join(folder, `${pad(phase)}-${pad(number)}-SUMMARY.md`), `# Summary ${pad(phase)}-${pad(number)}\n\nDone.\n`)
    }
  }
  return root
}

/** The best of `runs` cold runs (each `lintFiles` call is a new session) over `paths`. */
async function measure(label, paths, cwd) {
  let best = Infinity
  let files = 0
  let messages = 0
  for (let run = 0; run < runs; run++) {
    const start = performance.now()
    const linted = await lintFiles({paths, cwd, preset: 'recommended'})
    best = Math.min(best, performance.now() - start)
    files = linted.length
    messages = linted.reduce((sum, file) => sum + file.messages.length, 0)
  }
  console.log(`${label}: ${files} files, ${messages} messages, ${(best / 1000).toFixed(2)} s, ${Math.round(files / (best / 1000))} files/s`)
}

const root = generatedTree()
try {
  await measure(`generated tree (${phases} phases x ${plansPerPhase} plans, with summaries)`, ['.planning'], root)
} finally {
  fs.rmSync(root, {recursive: true, force: true})
}

if (values.corpus) {
  const corpus = path.resolve(values.corpus)
  const trees = fs.readdirSync(corpus).filter((name) => fs.existsSync(path.join(corpus, name, '.planning')))
  await measure(`corpus (${trees.length} planning trees)`, trees.map((name) => path.join(name, '.planning')), corpus)
}
