import fs from 'node:fs'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import type {VFile} from 'vfile'
import {afterAll, describe, expect, it} from 'vitest'
import {lintFiles, UsageError} from '../src/lint.js'
import {buildDocument} from '../src/model/document.js'
import {meaningOf as peerMeaning, peerErrors, peerWarnings} from '../scripts/peer-messages.mjs'
import {tableRows} from '../scripts/peer-verdicts-table.mjs'
import {removeTree, writeTree} from './support/tree.js'

/**
 * Parity with the two validators planlint replaces: every case recorded from
 * their test suites is replayed under the matching preset, and every
 * difference in verdict must be a row of the table in docs/parity.md, with
 * the reason planlint is right.
 */

const casesFile = fileURLToPath(new URL('../../shared/corpus/peer-cases/cases.json', import.meta.url))
const parityDoc = fileURLToPath(new URL('../docs/parity.md', import.meta.url))
const present = fs.existsSync(casesFile)

interface PeerCase {
  source: 'gsd' | 'pbr'
  test_name: string
  validator: string
  scope: string
  argv?: string[]
  plan_file?: string | null
  plan_text: string | null
  files?: Record<string, string>
  expected_valid: boolean | null
  expected_errors: string[]
  expected_warnings: string[]
}

/**
 * The planlint rules each peer validator's scope covers. A full validator
 * answers for the whole plan; the others check one thing, so planlint's other
 * rules do not count against their verdict.
 */
function rulesInScope(peer: PeerCase): Set<string> | 'all' {
  if (peer.scope === 'full') return 'all'
  if (peer.scope === 'frontmatter') return new Set(['frontmatter-schema', 'task-markup'])
  if (peer.scope === 'unit:scanNegativeGrepCommentEcho') return new Set(['negative-grep-echo'])
  if (peer.scope === 'unit:scanFileWideNegativeGateConflict') return new Set(['negative-gate-conflict'])
  if (peer.scope === 'multi-file') return new Set(['no-dependency-cycle', 'dependency-exists', 'unique-plan-ids', 'wave-order', 'plan-filename'])
  throw new Error(`unknown peer scope ${peer.scope}`)
}

/** Where a case's plan goes in the planning tree: paths outside `.planning/` go to a phase folder, keeping the file name. */
function planPath(planFile: string | null | undefined): string {
  if (!planFile) return '.planning/phases/01-test/01-01-PLAN.md'
  if (planFile.startsWith('.planning/')) return planFile
  return `.planning/phases/01-test/${path.basename(planFile)}`
}

/** The files a case's validator answered for: the one plan, or the plans of the phase the index command was given. */
function answeredFiles(peer: PeerCase, files: string[]): string[] {
  if (!peer.files) return files
  const phase = peer.argv?.[1]
  if (peer.argv?.[0] !== 'phase-plan-index' || !phase) return files
  return files.filter((file) => {
    const number = /^\d+/.exec(path.basename(path.dirname(file)))?.[0]
    return number !== undefined && Number(number) === Number(phase)
  })
}

interface Message {
  file: string
  rule: string
  error: boolean
  text: string
}

/** One disagreement, as a row of docs/parity.md: the case, what the peer said, what planlint says. */
interface Row {
  case: string
  peer: string
  planlint: string
}

const shorten = (text: string) => (text.length > 100 ? text.slice(0, 99).trimEnd() + '…' : text)
const code = (text: string) => '`' + shorten(text) + '`'

interface Outcome {
  rows: Row[]
  errors: {total: number; matched: number}
  warnings: {total: number; matched: number}
}

/** Lints a case's files with the real pipeline under its preset; `undefined` when planlint refuses the paths (a usage error). */
async function replay(peer: PeerCase): Promise<Message[] | undefined> {
  const files = peer.files ?? (peer.plan_text === null ? {} : {[planPath(peer.plan_file)]: peer.plan_text})
  const tree = Object.entries(files).map(([file, text]) => ({path: file, text}))
  // `.planning` exists even for the index cases of an empty phase.
  const root = writeTree([...tree, {path: '.planning/.keep', text: ''}], 'planlint-parity-')
  try {
    const paths = peer.plan_text === null && !peer.files ? [planPath(peer.plan_file)] : ['.planning']
    let linted: VFile[]
    try {
      linted = await lintFiles({paths, cwd: root, preset: peer.source})
    } catch (error) {
      if (error instanceof UsageError) return undefined
      throw error
    }
    const answered = new Set(answeredFiles(peer, Object.keys(files)))
    return linted.flatMap((file) => {
      const relative = path.relative(root, path.resolve(root, file.path))
      if (!answered.has(relative)) return []
      return file.messages.map((message) => ({file: relative, rule: message.ruleId ?? '', error: message.fatal === true, text: message.reason}))
    })
  } finally {
    removeTree(root)
  }
}

/** Compares planlint's messages on a case with the peer's verdict. */
function compare(peer: PeerCase, id: string, messages: Message[] | undefined): Outcome {
  const outcome: Outcome = {rows: [], errors: {total: 0, matched: 0}, warnings: {total: 0, matched: 0}}
  const scope = rulesInScope(peer)
  const inScope = (messages ?? []).filter((message) => scope === 'all' || scope.has(message.rule))
  const errorRules = [...new Set(inScope.filter((message) => message.error).map((message) => message.rule))].sort()
  const verdict = messages === undefined ? 'usage error: no such file' : errorRules.length > 0 ? `error: ${errorRules.join(', ')}` : 'no error'
  const meaningOf = (table: typeof peerErrors, text: string) => {
    const meaning = peerMeaning(table, text)
    if (!meaning) throw new Error(`${id}: no entry in the parity table for the peer message ${JSON.stringify(text)}`)
    return meaning
  }
  const said = (rule: string, mention: string | undefined, errorsOnly: boolean) =>
    inScope.some((message) => message.rule === rule && (!errorsOnly || message.error) && (mention === undefined || message.text.includes(mention)))

  for (const text of peer.expected_errors) {
    outcome.errors.total++
    const {rule, mention} = meaningOf(peerErrors, text)
    const matched = rule === 'missing-file' ? messages === undefined : rule !== undefined && said(rule, mention, true)
    if (matched) outcome.errors.matched++
    else {
      const weaker = rule && rule !== 'missing-file' && said(rule, mention, false) ? `warning: ${rule}; ` : ''
      outcome.rows.push({case: id, peer: `error ${code(text)}`, planlint: weaker + verdict})
    }
  }
  for (const text of peer.expected_warnings) {
    outcome.warnings.total++
    const {rule, mention} = meaningOf(peerWarnings, text)
    if (rule !== undefined && rule !== 'missing-file' && said(rule, mention, false)) outcome.warnings.matched++
    else outcome.rows.push({case: id, peer: `warning ${code(text)}`, planlint: rule ? `no ${rule} message` : 'no such rule'})
  }
  if (peer.expected_errors.length === 0) {
    for (const rule of errorRules) outcome.rows.push({case: id, peer: 'valid', planlint: `error: ${rule}`})
  }
  return outcome
}

/** Case ids: the source and test name, numbered when a test records several cases. */
function caseIds(cases: PeerCase[]): string[] {
  const seen = new Map<string, number>()
  return cases.map((peer) => {
    const name = `${peer.source}: ${peer.test_name}`
    const count = (seen.get(name) ?? 0) + 1
    seen.set(name, count)
    return count === 1 ? name : `${name} (#${count})`
  })
}

const escapeCell = (text: string) => text.replace(/\|/g, '\\|')

/** The table rows of docs/parity.md's "Disagreements" section: case, peer, planlint, why. */
function documentedRows(markdown: string): Array<Row & {why: string}> {
  return tableRows(markdown, 'Disagreements').map((cells) => ({case: cells[0], peer: cells[1], planlint: cells[2], why: cells[3] ?? ''}))
}

const rowKey = (row: Row) => [row.case, row.peer, row.planlint].map(escapeCell).join(' | ')

describe.skipIf(!present)('parity with the GSD and Plan-Build-Run validators (../shared/corpus/peer-cases)', () => {
  const cases: PeerCase[] = present ? JSON.parse(fs.readFileSync(casesFile, 'utf8')) : []
  const ids = caseIds(cases)
  const outcomes: Outcome[] = []

  afterAll(() => {
    if (outcomes.length === 0) return
    console.log(summaryOf(cases.length, outcomes))
  })

  it('replays every case and lists every disagreement in docs/parity.md', async () => {
    const crashes: string[] = []
    // A plan planlint did not take for a plan would agree with any peer verdict by saying nothing.
    const unread = cases.filter((peer) => !peer.files && peer.plan_text !== null && buildDocument(peer.plan_text, planPath(peer.plan_file)).kind !== 'plan')
    expect(unread.map((peer) => peer.test_name), 'every single-plan case is read as a plan').toEqual([])
    for (const [index, peer] of cases.entries()) {
      const messages = await replay(peer)
      for (const message of messages ?? []) if (/crashed on this file/.test(message.text)) crashes.push(`${ids[index]}: ${message.text}`)
      outcomes.push(compare(peer, ids[index], messages))
    }
    expect(crashes, 'no rule crashes on a peer case').toEqual([])
    const computed = outcomes.flatMap((outcome) => outcome.rows)
    const markdown = fs.readFileSync(parityDoc, 'utf8')
    const documented = documentedRows(markdown)
    const expected = new Set(computed.map(rowKey))
    const listed = new Set(documented.map(rowKey))
    const undocumented = computed.filter((row) => !listed.has(rowKey(row)))
    const gone = documented.filter((row) => !expected.has(rowKey(row)))
    expect(
      {undocumented: undocumented.map((row) => `| ${rowKey(row)} | |`), gone: gone.map((row) => `| ${rowKey(row)} |`)},
      'docs/parity.md must list exactly the disagreements the replay finds: add the undocumented rows (with why planlint is right) or remove the gone ones'
    ).toEqual({undocumented: [], gone: []})
    expect(documented.filter((row) => row.why === '').map(rowKey), 'every disagreement says why planlint is right').toEqual([])
    expect(markdown, 'docs/parity.md gives the current numbers').toContain(summaryOf(cases.length, outcomes))
  }, 600_000)
})

function summaryOf(caseCount: number, outcomes: Outcome[]): string {
  const agreeing = outcomes.filter((outcome) => outcome.rows.length === 0).length
  const rows = outcomes.reduce((sum, outcome) => sum + outcome.rows.length, 0)
  const errors = outcomes.reduce((sum, outcome) => ({total: sum.total + outcome.errors.total, matched: sum.matched + outcome.errors.matched}), {total: 0, matched: 0})
  const warnings = outcomes.reduce((sum, outcome) => ({total: sum.total + outcome.warnings.total, matched: sum.matched + outcome.warnings.matched}), {total: 0, matched: 0})
  return (
    `Parity: ${caseCount} peer cases, ${agreeing} in full agreement, ${caseCount - agreeing} with ${rows} documented disagreements; ` +
    `peer errors reported by planlint as errors: ${errors.matched} of ${errors.total}; peer warnings reported by planlint: ${warnings.matched} of ${warnings.total}.`
  )
}

/** Lints one plan under the gsd preset; returns its errors as `rule: message`. */
async function gsdErrors(text: string): Promise<string[]> {
  const root = writeTree([{path: '.planning/phases/01-test/01-01-PLAN.md', text}], 'planlint-parity-')
  try {
    const [file] = await lintFiles({paths: ['.planning'], cwd: root, preset: 'gsd'})
    return file.messages.filter((message) => message.fatal).map((message) => `${message.ruleId}: ${message.reason}`)
  } finally {
    removeTree(root)
  }
}

const frontmatter = (autonomous: boolean, dependsOn = '[]') =>
  `---\nphase: 01-test\nplan: 01\ntype: execute\nwave: 1\ndepends_on: ${dependsOn}\nfiles_modified: [src/a.ts]\nautonomous: ${autonomous}\nmust_haves:\n  truths: ["a works"]\n  artifacts: []\n  key_links: []\n---\n\n`
const autoTask = '<task type="auto">\n  <name>Build a</name>\n  <files>src/a.ts</files>\n  <action>Write a</action>\n  <verify>npm test</verify>\n  <done>a works</done>\n</task>\n'

/** The holes the corpus README names in GSD's validator, where planlint does better (GSD's verdicts from its README, not replayed). */
describe('where the GSD validator falls short', () => {
  it('reads `type` wherever it stands among the attributes (GSD reads only a leading `type=`)', async () => {
    const checkpoint =
      '<task id="01-01-T2" type="checkpoint:human-verify" gate="blocking">\n  <what-built>Page a at http://localhost:3000/a</what-built>\n' +
      '  <how-to-verify>Visit http://localhost:3000/a and see the title "A"</how-to-verify>\n  <resume-signal>Type "approved"</resume-signal>\n</task>\n'
    expect(await gsdErrors(frontmatter(true) + autoTask + checkpoint)).toEqual([expect.stringMatching(/^autonomous-flag: `autonomous: true` but this plan has a checkpoint task/)])
  })

  it('does not count tasks quoted in a code fence (GSD counts them, and their checkpoints)', async () => {
    const example = '```xml\n<task type="checkpoint:decision">\n  <decision>An example</decision>\n</task>\n```\n\n'
    expect(await gsdErrors(frontmatter(true) + example + autoTask)).toEqual([])
  })

  it('reports a `depends_on` entry that names no plan (GSD drops it silently)', async () => {
    expect(await gsdErrors(frontmatter(true, '["01-09"]') + autoTask)).toEqual([expect.stringMatching(/^dependency-exists: /)])
  })
})
