#!/usr/bin/env node
// Lints ../shared/corpus/real (or the folder given) and writes per-rule counts
// and sample messages to a file outside the repository (default: /tmp).
// Usage: node scripts/corpus-report.mjs [corpus] [--preset NAME] [--out FILE] [--samples N]
import fs from 'node:fs'
import path from 'node:path'
import os from 'node:os'
import {parseArgs} from 'node:util'
import {lintFiles} from '../dist/src/lint.js'
import {toResults} from '../dist/src/reporters/result.js'

const {values, positionals} = parseArgs({
  allowPositionals: true,
  options: {preset: {type: 'string', default: 'recommended'}, out: {type: 'string'}, samples: {type: 'string', default: '12'}}
})
const corpus = path.resolve(positionals[0] ?? new URL('../../shared/corpus/real', import.meta.url).pathname)
const out = values.out ?? path.join(os.tmpdir(), `planlint-corpus-${values.preset}.md`)
const samples = Number(values.samples)
const repos = fs.readdirSync(corpus).filter((name) => fs.existsSync(path.join(corpus, name, '.planning')))
const started = Date.now()
const byRule = new Map()
let files = 0
for (const repo of repos) {
  const results = toResults(await lintFiles({paths: [path.join(corpus, repo, '.planning')], preset: values.preset, cwd: corpus}))
  files += results.length
  for (const result of results) {
    for (const message of result.messages) {
      const id = message.ruleId ?? '(none)'
      if (!byRule.has(id)) byRule.set(id, {count: 0, files: new Set(), messages: []})
      const entry = byRule.get(id)
      entry.count++
      entry.files.add(result.filePath)
      entry.messages.push(`${path.relative(corpus, result.filePath)}:${message.line}:${message.column} ${message.severity === 2 ? 'error' : 'warning'} ${message.message}`)
    }
  }
}
// A fixed stride through each rule's messages, so samples spread over repositories and are stable.
const pick = (list) => (list.length <= samples ? list : Array.from({length: samples}, (_, index) => list[Math.floor((index * list.length) / samples)]))
const lines = [`# planlint on ${corpus} (preset ${values.preset})`, '', `${files} files linted in ${((Date.now() - started) / 1000).toFixed(1)} s`, '', '| rule | messages | files |', '|---|---|---|']
const sorted = [...byRule].sort((a, b) => b[1].count - a[1].count)
for (const [id, entry] of sorted) lines.push(`| ${id} | ${entry.count} | ${entry.files.size} |`)
for (const [id, entry] of sorted) lines.push('', `## ${id}`, '', ...pick(entry.messages).map((message) => `- ${message}`))
fs.writeFileSync(out, lines.join('\n') + '\n')
// Every message, for reading more than the samples.
fs.writeFileSync(out.replace(/\.md$/, '') + '.json', JSON.stringify(Object.fromEntries([...byRule].map(([id, entry]) => [id, entry.messages])), null, 1))
console.log(lines.slice(0, 6 + sorted.length).join('\n'))
console.log(`\nwritten to ${out}`)
