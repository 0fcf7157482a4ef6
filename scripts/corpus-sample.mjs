#!/usr/bin/env node
// Material for judging planlint's messages by someone who did not write the rules.
// Lints repository folders (each holding a .planning tree) with the built planlint and
// writes a Markdown report outside the repository: messages and files per rule and per
// 100 plans, the message texts repeated within a repository (a noise signal), and a
// seeded random sample of messages per rule, each with its fix and the plan's text
// around it. `--human-actions` lists every checkpoint:human-action task instead, with
// whether no-automatable-human-action flagged it, to judge what the rule misses.
//
// Usage:
//   npm run build
//   node scripts/corpus-sample.mjs --set check --per-rule 8 --seed 7 --out /tmp/sample.md
//   node scripts/corpus-sample.mjs ../shared/corpus/real/a__b ../shared/corpus/real/c__d --rules safe-file-paths
//   node scripts/corpus-sample.mjs --set check --human-actions --out /tmp/human-actions.md
// Options:
//   --set tune|check   the repositories of that set in split.tsv (instead of folders)
//   --corpus DIR       where the set's folders are (default ../shared/corpus/real)
//   --preset NAME      preset to lint with (default recommended)
//   --per-rule N       messages sampled per rule (default 5)
//   --seed N           seed of the sample (default 1); the same seed gives the same sample
//   --rules a,b        lint with only these rules of the preset (faster), at the preset's settings
//   --context N        lines of plan text shown either side of a message (default 6)
//   --repeats N        report a message text repeated at least N times in a repository (default 3)
//   --include-executed also report on plans that have run (have a SUMMARY) or are superseded, as the CLI's flag
//   --plans-only       lint only plan files (*-PLAN.md, PLAN.md, ...): faster, and enough for rules that read plans only
//   --human-actions    list the human-action checkpoints (path:line, text, flagged or not); lints only the files that have one
//   --blind            with --human-actions: leave out whether the rule flagged each task
//   --out FILE         report file (default /tmp/planlint-sample-<set or folders>.md)
import {execFileSync} from 'node:child_process'
import {createHash} from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {parseArgs} from 'node:util'
import {lintFiles} from '../dist/src/lint.js'
import {buildDocument, isPlanFileName} from '../dist/src/model/document.js'
import {taskType} from '../dist/src/plan.js'
import {toResults} from '../dist/src/reporters/result.js'

const {values, positionals} = parseArgs({
  allowPositionals: true,
  options: {
    set: {type: 'string'},
    corpus: {type: 'string'},
    preset: {type: 'string', default: 'recommended'},
    'per-rule': {type: 'string', default: '5'},
    seed: {type: 'string', default: '1'},
    rules: {type: 'string'},
    context: {type: 'string', default: '6'},
    repeats: {type: 'string', default: '3'},
    'human-actions': {type: 'boolean', default: false},
    'plans-only': {type: 'boolean', default: false},
    'include-executed': {type: 'boolean', default: false},
    blind: {type: 'boolean', default: false},
    out: {type: 'string'},
    help: {type: 'boolean', short: 'h', default: false}
  }
})
if (values.help) {
  // The usage is the header comment of this file.
  const header = fs.readFileSync(new URL(import.meta.url), 'utf8').split('\n').filter((line) => line.startsWith('//'))
  console.log(header.map((line) => line.replace(/^\/\/ ?/, '')).join('\n'))
  process.exit(0)
}

// The corpus sits beside the main repository (../shared), which a worktree elsewhere finds through git.
function defaultCorpus() {
  const beside = new URL('../../shared/corpus/real', import.meta.url).pathname
  if (fs.existsSync(beside)) return beside
  const common = execFileSync('git', ['rev-parse', '--path-format=absolute', '--git-common-dir'], {cwd: path.dirname(new URL(import.meta.url).pathname), encoding: 'utf8'}).trim()
  return path.join(path.dirname(path.dirname(common)), 'shared', 'corpus', 'real')
}
const corpus = path.resolve(values.corpus ?? defaultCorpus())
function setFolders(set) {
  const splitFile = path.join(corpus, '..', 'split.tsv')
  const rows = fs.readFileSync(splitFile, 'utf8').split('\n').slice(1).map((line) => line.trim().split('\t'))
  const folders = rows.filter((row) => row[1] === set).map((row) => path.join(corpus, row[0]))
  if (folders.length === 0) throw new Error(`no repositories of set "${set}" in ${splitFile}`)
  return folders
}
const folders = values.set ? setFolders(values.set) : positionals.map((folder) => path.resolve(folder))
if (folders.length === 0) {
  console.error('give repository folders or --set tune|check')
  process.exit(2)
}
const base = values.set ? corpus : path.dirname(folders[0])
const onlyRules = values.rules ? new Set(values.rules.split(',').map((rule) => rule.trim())) : undefined
const perRule = Number(values['per-rule'])
const contextLines = Number(values.context)
const repeatAt = Number(values.repeats)
const label = values.set ?? (folders.length === 1 ? path.basename(folders[0]) : `${folders.length}-repos`)
const out = values.out ?? path.join(os.tmpdir(), `planlint-sample-${label}${values['human-actions'] ? '-human-actions' : ''}.md`)

// The sample of a rule is the `count` messages whose hash with the seed is smallest: a message
// that stays is drawn again whatever else changed (other rules' counts, messages added or removed
// elsewhere), so verdicts on it carry over from one round of judging to the next.
function sample(list, count, seed) {
  const rank = (message) => createHash('sha256').update(`${seed}\u0000${message.ruleId}\u0000${message.where}\u0000${message.message}`).digest('hex')
  return list
    .map((message) => ({message, rank: rank(message)}))
    .sort((a, b) => (a.rank < b.rank ? -1 : a.rank > b.rank ? 1 : 0))
    .slice(0, count)
    .map((entry) => entry.message)
}

const texts = new Map()
const textOf = (file) => {
  if (!texts.has(file)) texts.set(file, fs.readFileSync(file, 'utf8'))
  return texts.get(file)
}
const lineStarts = (text) => {
  const starts = [0]
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) starts.push(index + 1)
  return starts
}
const lineAt = (starts, offset) => {
  let low = 0
  let high = starts.length - 1
  while (low < high) {
    const middle = (low + high + 1) >> 1
    if (starts[middle] <= offset) low = middle
    else high = middle - 1
  }
  return low + 1
}
/** The plan's lines around `line`, numbered, the message's line marked with `>`. */
function excerpt(file, line, endLine = line) {
  const lines = textOf(file).split('\n')
  const from = Math.max(1, line - contextLines)
  const to = Math.min(lines.length, endLine + contextLines, line + contextLines * 4)
  const width = String(to).length
  const shown = []
  for (let number = from; number <= to; number++) {
    const mark = number >= line && number <= endLine ? '>' : ' '
    shown.push(`${mark} ${String(number).padStart(width)} | ${lines[number - 1]}`)
  }
  return shown.join('\n')
}
const fence = (body) => {
  const longest = Math.max(2, ...[...body.matchAll(/`+/g)].map((match) => match[0].length))
  return '`'.repeat(longest + 1) + '\n' + body + '\n' + '`'.repeat(longest + 1)
}
function describeEdit(file, edit) {
  const original = textOf(file).slice(edit.range[0], edit.range[1])
  return `replace ${JSON.stringify(original.length > 300 ? original.slice(0, 300) + '…' : original)} with ${JSON.stringify(edit.text.length > 300 ? edit.text.slice(0, 300) + '…' : edit.text)}`
}

// With --rules, a remark config of the preset with just those rules (at the preset's settings) and its
// other plugins (frontmatter parsing): linting with one rule takes a fraction of the whole preset's time.
// The rules' remark plugins come from dist/src/plugins.js; a rule's definition (dist/rules/<id>.js) is no plugin.
let config
if (onlyRules) {
  const {rules} = await import('../dist/rules/index.js')
  for (const rule of onlyRules) if (!Object.hasOwn(rules, rule)) throw new Error(`no rule ${rule} in planlint (dist/rules/index.js)`)
  const dist = new URL('../dist/src/', import.meta.url).pathname
  config = path.join(os.tmpdir(), `planlint-sample-${process.pid}.remarkrc.mjs`)
  fs.writeFileSync(
    config,
    [
      `import {presets} from ${JSON.stringify(path.join(dist, 'presets', 'index.js'))}`,
      `import {remarkPlugins} from ${JSON.stringify(path.join(dist, 'plugins.js'))}`,
      `const rulePlugins = new Set(Object.values(remarkPlugins))`,
      `const kept = new Set(${JSON.stringify([...onlyRules])}.map((id) => remarkPlugins[id]))`,
      `const pluginOf = (entry) => (Array.isArray(entry) ? entry[0] : entry)`,
      `export default {plugins: presets[${JSON.stringify(values.preset)}].plugins.filter((entry) => !rulePlugins.has(pluginOf(entry)) || kept.has(pluginOf(entry)))}`,
      ''
    ].join('\n')
  )
  process.on('exit', () => fs.rmSync(config, {force: true}))
}
/** The Markdown files of a folder, sorted. */
function markdownFiles(dir) {
  const found = []
  const walk = (folder) => {
    for (const entry of fs.readdirSync(folder, {withFileTypes: true})) {
      const full = path.join(folder, entry.name)
      if (entry.isDirectory()) walk(full)
      else if (/\.(md|markdown)$/.test(entry.name)) found.push(full)
    }
  }
  walk(dir)
  return found.sort()
}

const started = Date.now()
const messages = []
const repoStats = []
for (const folder of folders) {
  const planning = path.join(folder, '.planning')
  if (!fs.existsSync(planning)) {
    console.error(`skipped ${folder}: no .planning`)
    continue
  }
  const files = markdownFiles(planning)
  const wanted = values['human-actions']
    ? files.filter((file) => textOf(file).includes('human-action'))
    : values['plans-only']
      ? files.filter((file) => isPlanFileName(path.basename(file)))
      : undefined
  const paths = wanted ?? [planning]
  const results = paths.length === 0 ? [] : toResults(await lintFiles({paths, cwd: folder, includeExecuted: values['include-executed'], ...(config ? {config} : {preset: values.preset})}))
  const repo = path.basename(folder)
  repoStats.push({repo, files: results.length, plans: files.filter((file) => isPlanFileName(path.basename(file))).length})
  for (const result of results) {
    for (const message of result.messages) {
      const ruleId = message.ruleId ?? '(none)'
      if (onlyRules && !onlyRules.has(ruleId)) continue
      messages.push({...message, ruleId, repo, file: result.filePath, where: `${path.relative(base, result.filePath)}:${message.line}:${message.column}`})
    }
  }
  process.stderr.write('.')
}
process.stderr.write('\n')
const plans = repoStats.reduce((sum, stat) => sum + stat.plans, 0)
const lintedFiles = repoStats.reduce((sum, stat) => sum + stat.files, 0)
const lines = [
  `# planlint ${values['human-actions'] ? 'human-action checkpoints' : 'messages'}: ${label} (preset ${values.preset})`,
  '',
  `${repoStats.length} repositories, ${lintedFiles} files, ${plans} plans, linted in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
  ''
]

if (values['human-actions']) {
  // Every human-action checkpoint task, and (unless --blind) the messages of the rule inside it.
  const flagged = messages.filter((message) => message.ruleId === 'no-automatable-human-action')
  let count = 0
  let flaggedCount = 0
  const entries = []
  for (const {repo} of repoStats) {
    for (const file of markdownFiles(path.join(base, repo, '.planning'))) {
      const document = buildDocument(textOf(file), file)
      const starts = lineStarts(document.text)
      for (const task of document.tasks) {
        if (taskType(task) !== 'checkpoint:human-action') continue
        count++
        const startLine = lineAt(starts, task.range[0])
        const endLine = lineAt(starts, task.range[1])
        const inside = flagged.filter((message) => message.file === file && message.line >= startLine && message.line <= endLine)
        if (inside.length > 0) flaggedCount++
        const body = document.text.slice(task.range[0], task.range[1]).split('\n')
        const shown = body.length > 80 ? [...body.slice(0, 80), `… (${body.length - 80} more lines)`] : body
        entries.push('', `## ${count}. ${path.relative(base, file)}:${startLine}`, '')
        if (!values.blind) {
          entries.push(inside.length === 0 ? 'not flagged' : inside.map((message) => `flagged at line ${message.line}: ${message.message}`).join('\n\n'), '')
        }
        entries.push(fence(shown.join('\n')))
      }
    }
  }
  lines.push(`${count} human-action checkpoint tasks${values.blind ? '' : `, ${flaggedCount} with a no-automatable-human-action message`}.`, '', ...entries)
} else {
  const byRule = new Map()
  for (const message of messages) {
    if (!byRule.has(message.ruleId)) byRule.set(message.ruleId, [])
    byRule.get(message.ruleId).push(message)
  }
  const sorted = [...byRule].sort((a, b) => b[1].length - a[1].length)
  lines.push('| rule | messages | files | messages per 100 plans | files with a fix |', '|---|---|---|---|---|')
  for (const [ruleId, list] of sorted) {
    const files = new Set(list.map((message) => message.file)).size
    const fixed = new Set(list.filter((message) => message.fix || message.suggestions).map((message) => message.file)).size
    lines.push(`| ${ruleId} | ${list.length} | ${files} | ${((100 * list.length) / Math.max(1, plans)).toFixed(1)} | ${fixed} |`)
  }

  lines.push('', '## Repeated message texts per repository', '', `The same rule and text at least ${repeatAt} times in one repository.`, '')
  const repeats = new Map()
  for (const message of messages) {
    const key = `${message.repo}\u0000${message.ruleId}\u0000${message.message}`
    const entry = repeats.get(key) ?? {repo: message.repo, ruleId: message.ruleId, text: message.message, count: 0, files: new Set()}
    entry.count++
    entry.files.add(message.file)
    repeats.set(key, entry)
  }
  const repeated = [...repeats.values()].filter((entry) => entry.count >= repeatAt).sort((a, b) => b.count - a.count)
  if (repeated.length === 0) lines.push('None.')
  else {
    lines.push('| repository | rule | times | files | message |', '|---|---|---|---|---|')
    for (const entry of repeated) {
      lines.push(`| ${entry.repo} | ${entry.ruleId} | ${entry.count} | ${entry.files.size} | ${entry.text.replace(/\|/g, '\\|').replace(/\n/g, ' ')} |`)
    }
  }

  lines.push('', `## Sample: up to ${perRule} messages per rule (seed ${values.seed})`)
  let number = 0
  for (const [ruleId, list] of [...byRule].sort((a, b) => a[0].localeCompare(b[0]))) {
    lines.push('', `### ${ruleId} (${list.length} messages)`)
    for (const message of sample(list, perRule, values.seed)) {
      number++
      lines.push('', `#### ${number}. ${message.where}`, '', `${message.severity === 2 ? 'error' : 'warning'}: ${message.message}`)
      if (message.fix) lines.push('', `fix: ${describeEdit(message.file, message.fix)}`)
      for (const suggestion of message.suggestions ?? []) lines.push('', `suggestion: ${describeEdit(message.file, suggestion.fix)}`)
      lines.push('', fence(excerpt(message.file, message.line, message.endLine ?? message.line)))
    }
  }
  fs.writeFileSync(out.replace(/\.md$/, '') + '.json', JSON.stringify(messages.map((message) => ({...message, file: path.relative(base, message.file)})), null, 1))
}

fs.writeFileSync(out, lines.join('\n') + '\n')
// The summary: everything before the first section.
const firstSection = lines.findIndex((line) => line.startsWith('## '))
console.log(lines.slice(0, firstSection === -1 ? 5 : firstSection).join('\n'))
console.log(`\nwritten to ${out}`)
