#!/usr/bin/env node
// Runs GSD's own plan validator (`verify plan-structure`, from the npm
// package, fetched with `npm pack` into a temporary folder and loaded in
// process) on every plan of the real corpus, lints the same plans with
// planlint under the `gsd` preset, and compares the verdicts plan by plan:
// - every GSD error that planlint does not report as an error (of the rule
//   that means the same, naming the same key, element or literal);
// - every planlint error on a plan that GSD finds valid.
// Writes the recorded outcome (test/fixtures/peer-verdicts.json) and the
// counts of the "Verdicts on the real corpus" table in docs/parity.md, keeping
// the explanations written there (a new class gets an empty one, which
// test/parity.test.ts rejects until someone explains it). Build first.
// Usage: node scripts/peer-verdicts.mjs [--peer @opengsd/gsd-core@1.14.0] [--corpus DIR] [--repos tune|check|all] [--examples N]
import {execFileSync} from 'node:child_process'
import fs from 'node:fs'
import {createRequire} from 'node:module'
import os from 'node:os'
import path from 'node:path'
import {parseArgs} from 'node:util'
import {lintFiles} from '../dist/src/lint.js'
import {buildDocument} from '../dist/src/model/document.js'
import {meaningOf, peerErrors} from './peer-messages.mjs'
import {classRows, peerSection, replaceSection} from './peer-verdicts-table.mjs'

const {values} = parseArgs({
  options: {
    peer: {type: 'string', default: '@opengsd/gsd-core@1.14.0'},
    corpus: {type: 'string', default: new URL('../../shared/corpus/real', import.meta.url).pathname},
    repos: {type: 'string', default: 'all'},
    examples: {type: 'string', default: '3'},
    record: {type: 'boolean', default: true},
    // `--shard 1/3` runs every third repository and writes its part to `--part FILE`; `--combine` adds parts up.
    shard: {type: 'string'},
    part: {type: 'string'},
    combine: {type: 'string', multiple: true}
  }
})
const project = new URL('..', import.meta.url).pathname
const corpus = path.resolve(values.corpus)

/** Fetches the peer package with `npm pack` and loads its `verify plan-structure` with its output captured. */
function loadPeer(spec) {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'planlint-peer-'))
  const tarball = execFileSync('npm', ['pack', spec, '--silent', '--pack-destination', folder], {cwd: folder, encoding: 'utf8'}).trim().split('\n').at(-1)
  execFileSync('tar', ['xzf', path.join(folder, tarball), '-C', folder])
  const lib = ['gsd-core', 'get-shit-done'].map((name) => path.join(folder, 'package', name, 'bin', 'lib')).find((dir) => fs.existsSync(path.join(dir, 'verify.cjs')))
  if (!lib) throw new Error(`${spec}: no bin/lib/verify.cjs in the package`)
  const version = JSON.parse(fs.readFileSync(path.join(folder, 'package', 'package.json'), 'utf8')).version
  const require = createRequire(path.join(lib, 'verify.cjs'))
  let captured
  // The validator prints its verdict through `output` (io.cjs in gsd-core, core.cjs in get-shit-done-cc); take it instead.
  for (const module of ['io.cjs', 'core.cjs']) {
    if (!fs.existsSync(path.join(lib, module))) continue
    const exports = require(path.join(lib, module))
    if (typeof exports.output === 'function') exports.output = (result) => { captured = result }
  }
  const {cmdVerifyPlanStructure} = require(path.join(lib, 'verify.cjs'))
  const verify = (file) => {
    captured = undefined
    cmdVerifyPlanStructure(path.dirname(file), file, false)
    return captured
  }
  return {verify, version: `${JSON.parse(fs.readFileSync(path.join(folder, 'package', 'package.json'), 'utf8')).name}@${version}`, folder}
}

/**
 * A peer message with its particulars (task names, literals, the literal of
 * an allow comment) taken out, so that messages of one kind form one class.
 * The allow comment and the double-quoted literal go first: a literal may
 * hold a lone single quote (`from '@/lib/x`), which would pair with another.
 */
const generalised = (text) =>
  text
    .replace(/(<!-- [\w-]+-allow: ).*? -->/g, '$1… -->')
    .replace(/"[^"]*"/g, '"…"')
    .replace(/'[^']*'/g, "'…'")

const split = new Map(
  fs.readFileSync(path.join(corpus, '..', 'split.tsv'), 'utf8').split('\n').slice(1).filter(Boolean).map((line) => line.split('\t'))
)
const repos = fs
  .readdirSync(corpus)
  .filter((name) => fs.existsSync(path.join(corpus, name, '.planning')))
  .filter((name) => values.repos === 'all' || split.get(name) === values.repos)
  .sort()
  .filter((_, index) => {
    if (!values.shard) return true
    const [which, of] = values.shard.split('/').map(Number)
    return index % of === which - 1
  })

const classes = new Map()
let compared = 0
let agreeing = 0
let peerVersion
let repositories = repos.length
if (values.combine) {
  repositories = 0
  for (const file of values.combine) {
    const part = JSON.parse(fs.readFileSync(file, 'utf8'))
    peerVersion = part.peer
    repositories += part.repositories
    compared += part.compared
    agreeing += part.agreeing
    for (const entry of part.classes) {
      const known = classes.get(entry.id)
      if (known) {
        known.plans += entry.plans
        known.examples.push(...entry.examples)
      } else classes.set(entry.id, entry)
    }
  }
}
const peer = values.combine ? undefined : loadPeer(values.peer)
const addTo = (key, plan) => {
  if (!classes.has(key.id)) classes.set(key.id, {...key, plans: 0, examples: []})
  const entry = classes.get(key.id)
  entry.plans++
  // Examples only from the tune set: the check set is for judging, not for reading.
  if (split.get(plan.split('/')[0]) === 'tune' && entry.examples.length < Number(values.examples)) entry.examples.push(plan)
}

for (const [index, repo] of (values.combine ? [] : repos).entries()) {
  process.stderr.write(`${index + 1}/${repos.length} ${repo}\n`)
  // Plans that have run are linted too: GSD's validator checks every plan, and the comparison is of the checks.
  const files = await lintFiles({paths: [path.join(corpus, repo, '.planning')], preset: 'gsd', cwd: corpus, includeExecuted: true})
  for (const file of files) {
    const absolute = path.resolve(corpus, file.path)
    const text = String(file.value)
    if (buildDocument(text, absolute).kind !== 'plan') continue
    const verdict = peer.verify(absolute)
    if (!verdict || verdict.error) continue
    compared++
    const relative = path.relative(corpus, absolute)
    const messages = file.messages.map((message) => ({rule: message.ruleId ?? '', error: message.fatal === true, text: message.reason}))
    const said = (rule, mention, errorsOnly) =>
      messages.some((message) => message.rule === rule && (!errorsOnly || message.error) && (mention === undefined || message.text.includes(mention)))
    const found = new Map()
    for (const error of verdict.errors ?? []) {
      const meaning = meaningOf(peerErrors, error)
      let planlint
      if (!meaning) planlint = 'no rule means this (not in scripts/peer-messages.mjs)'
      else if (meaning.rule === undefined) planlint = 'no such rule'
      else if (said(meaning.rule, meaning.mention, true)) continue
      else planlint = said(meaning.rule, meaning.mention, false) ? `warning: ${meaning.rule}` : `no ${meaning.rule} message`
      const key = {peer: `error \`${generalised(error)}\``, planlint}
      found.set(`${key.peer} | ${key.planlint}`, key)
    }
    if ((verdict.errors ?? []).length === 0) {
      for (const rule of new Set(messages.filter((message) => message.error).map((message) => message.rule))) {
        const key = {peer: 'valid', planlint: `error: ${rule}`}
        found.set(`${key.peer} | ${key.planlint}`, key)
      }
    }
    if (found.size === 0) agreeing++
    for (const [id, key] of found) addTo({id, ...key}, relative)
  }
}
if (peer) fs.rmSync(peer.folder, {recursive: true, force: true})
if (values.part) {
  fs.writeFileSync(values.part, JSON.stringify({peer: peer.version, repositories, compared, agreeing, classes: [...classes.values()]}))
  process.exit(0)
}

const outcome = {
  peer: peerVersion ?? peer.version,
  preset: 'gsd',
  repositories,
  compared,
  agreeing,
  classes: [...classes.values()].sort((a, b) => b.plans - a.plans || a.id.localeCompare(b.id)).map(({peer, planlint, plans}) => ({peer, planlint, plans}))
}
for (const entry of [...classes.values()].sort((a, b) => b.plans - a.plans)) {
  console.log(`${entry.plans}\t${entry.peer}\t${entry.planlint}\n\t${entry.examples.join('\n\t')}`)
}
console.log(`\n${outcome.peer}: ${compared} plans compared, ${agreeing} agree, ${compared - agreeing} disagree`)
if (values.record && values.repos === 'all' && !values.shard) {
  fs.writeFileSync(path.join(project, 'test/fixtures/peer-verdicts.json'), JSON.stringify(outcome, null, 1) + '\n')
  const doc = path.join(project, 'docs/parity.md')
  const markdown = fs.readFileSync(doc, 'utf8')
  fs.writeFileSync(doc, replaceSection(markdown, peerSection(outcome, classRows(markdown))))
  console.log('recorded in test/fixtures/peer-verdicts.json and docs/parity.md')
}
