import {createHash} from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {check} from 'recheck'
import ts from 'typescript'
import {beforeAll, describe, expect, it, vi} from 'vitest'
import {readRecord, writeRecord} from './support/record.js'

/**
 * Every regular expression planlint applies to plan text runs in linear time:
 * each pattern of the rules and of `src/` (literals read from the sources, and
 * the patterns the rules build at run time, caught while they lint every doc
 * example) is checked with recheck, a ReDoS checker. The lint rules
 * `regexp/no-super-linear-*` catch most of this while editing; recheck also
 * finds what they miss (`\{[^}]*,[^}]*\}`).
 */

const root = fileURLToPath(new URL('..', import.meta.url))

/** Patterns recheck calls vulnerable that only ever see short, bounded text: what bounds it. */
const boundedPatterns = new Map<string, string>([
  ['(^|-)PLAN-\\d+[a-z]?(-[\\w.-]+)?\\.md$', 'a file name (at most 255 bytes)'],
  ['(^|-)PLAN\\.md$', 'a file name (at most 255 bytes)'],
  ['(^|-)SUMMARY\\.md$', 'a file name (at most 255 bytes)'],
  // A search said in words must end right before the literal: tried from every `grep` of the text, it is quadratic, so it reads the 60 characters before the literal only.
  ['\\b(?:grep|rg|ripgrep|search|scan)(?:\\s+[\\w./*-]+){0,4}\\s+for\\s*[`\'"]?$|\\b(?:grep|rg)(?:\\s+-\\w+)*\\s+[`\'"]?$', 'the 60 characters before a literal (negative-grep-echo, searchedFor)']
])

/** User-configured patterns seen at run time (`plan-filename`'s `patterns`, marker names): not planlint's own. */
const fromOptions = (_source: string) => false

interface Pattern {
  source: string
  flags: string
  where: string
}

function sourceFiles(): string[] {
  const files: string[] = []
  for (const folder of ['src', 'rules']) {
    for (const entry of fs.readdirSync(path.join(root, folder), {recursive: true, withFileTypes: true})) {
      if (entry.isFile() && entry.name.endsWith('.ts')) files.push(path.join(entry.parentPath, entry.name))
    }
  }
  return files
}

/** The regular expression literals of the sources. */
function literalPatterns(): Pattern[] {
  const patterns: Pattern[] = []
  for (const file of sourceFiles()) {
    const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true)
    const visit = (node: ts.Node) => {
      if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
        const text = node.getText(source)
        const slash = text.lastIndexOf('/')
        const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1
        patterns.push({source: text.slice(1, slash), flags: text.slice(slash + 1), where: `${path.relative(root, file)}:${line}`})
      }
      ts.forEachChild(node, visit)
    }
    visit(source)
  }
  return patterns
}

const built: Pattern[] = []

/** Records the patterns planlint's own modules build with `new RegExp` while they lint every doc example. */
async function builtPatterns(): Promise<void> {
  const Original = globalThis.RegExp
  const ownCode = new Set(sourceFiles().map((file) => path.basename(file, '.ts')))
  globalThis.RegExp = new Proxy(Original, {
    construct(target, args: [string | RegExp, string?]) {
      const pattern = new target(...args)
      const caller = new Error().stack?.split('\n')[2] ?? ''
      const file = /(?<![\w-])([\w-]+)\.[jt]s:\d+/.exec(caller)?.[1]
      if (file && ownCode.has(file) && /[/\\](src|rules)[/\\]/.test(caller)) built.push({source: pattern.source, flags: pattern.flags, where: caller.trim()})
      return pattern
    }
  })
  try {
    // The suite shares a module graph between test files: load the modules afresh, so that the patterns they build as they load are seen too.
    vi.resetModules()
    const {rules} = await import('../rules/index.js')
    const {docExamples, runExample} = await import('./support/doc-examples.js')
    for (const ruleId of Object.keys(rules) as Array<keyof typeof rules>) {
      for (const example of docExamples(ruleId)) await runExample(ruleId, example)
    }
  } finally {
    globalThis.RegExp = Original
  }
}

/** A pattern's time on recheck's attack string at `size` characters, best of five runs, in milliseconds. */
function attackTime(pattern: RegExp, attack: {pumps: Array<{prefix: string; pump: string}>; suffix: string}, size: number): number {
  const pumped = attack.pumps.map(({prefix, pump}) => prefix + pump.repeat(Math.ceil(size / attack.pumps.length / pump.length))).join('')
  const text = pumped + attack.suffix
  let best = Infinity
  for (let run = 0; run < 5; run++) {
    const start = performance.now()
    pattern.lastIndex = 0
    pattern.test(text)
    best = Math.min(best, performance.now() - start)
    if (best > 1000) break
  }
  return best
}

/**
 * recheck's verdict: its automaton checker where it applies (exact), else its
 * fuzzer with a fixed seed. The fuzzer counts steps on short strings, so a
 * pattern it calls vulnerable is run on its attack string at 10,000 and
 * 100,000 characters: a super-linear one takes far more than ten times longer.
 */
async function verdict(pattern: Pattern): Promise<string> {
  const exact = await check(pattern.source, pattern.flags, {checker: 'automaton', timeout: 3000})
  if (exact.status !== 'unknown') return exact.status
  const fuzzed = await check(pattern.source, pattern.flags, {checker: 'fuzz', randomSeed: 1, timeout: 2000})
  // `unknown` here: the fuzzer found no attack string in its time.
  if (fuzzed.status === 'unknown') return 'safe'
  if (fuzzed.status !== 'vulnerable' || !fuzzed.attack) return fuzzed.status
  const compiled = new RegExp(pattern.source, pattern.flags)
  const small = attackTime(compiled, fuzzed.attack, 10_000)
  if (small > 1000) return `vulnerable (${Math.round(small)} ms at 10,000 characters)`
  const large = attackTime(compiled, fuzzed.attack, 100_000)
  const growth = large / Math.max(small, 0.05)
  return growth < 30 ? 'safe' : `vulnerable (${growth.toFixed(0)} times slower at 10 times the size)`
}

/**
 * The patterns recheck found safe, recorded in the repository
 * (test/fixtures/redos-safe.json, for this version of recheck and this text of
 * `verdict` and `attackTime`): a check can take five seconds of recheck's
 * time-outs, so checking every pattern from scratch took three minutes of each
 * fresh clone's suite. With the fuzzer's seed fixed the same pattern gets the
 * same verdict, so only a new or changed pattern is checked; a pattern that
 * failed is never recorded. A run outside CI writes the record back when the
 * patterns changed, and it is committed with them. To check every pattern
 * again: delete the file and run this test.
 */
function safeVerdicts(current: Set<string>): {known: Set<string>; save: () => void} {
  const recheckVersion = (JSON.parse(fs.readFileSync(path.join(root, 'node_modules/recheck/package.json'), 'utf8')) as {version: string}).version
  const procedure = `recheck@${recheckVersion}-${createHash('sha1').update(verdict.toString()).update(attackTime.toString()).digest('hex').slice(0, 12)}`
  const file = path.join(root, 'test/fixtures/redos-safe.json')
  const record = readRecord<{procedure: string; safe: string[]}>(file)
  const known = new Set(record?.procedure === procedure ? record.safe : [])
  // Only the patterns the sources have now, so that a pattern removed from them is not kept.
  return {known, save: () => writeRecord(file, {procedure, safe: [...known].filter((key) => current.has(key)).sort()})}
}

describe('regular expressions run in linear time', () => {
  beforeAll(builtPatterns, 120_000)

  it('finds the patterns it checks, literal and built', () => {
    const literals = literalPatterns()
    expect(literals.length).toBeGreaterThan(100)
    // Rules build patterns from their options (`no-cli-in-human-verify`'s commands, `plan-filename`'s patterns).
    expect(built.length).toBeGreaterThan(0)
  })

  it('every pattern is safe for recheck, or named with what bounds its input', async () => {
    const seen = new Map<string, Pattern>()
    for (const pattern of [...literalPatterns(), ...built]) {
      if (!fromOptions(pattern.source)) seen.set(`/${pattern.source}/${pattern.flags}`, pattern)
    }
    const unsafe: string[] = []
    const boundedSeen = new Set<string>()
    const checked = [...seen.values()].filter((pattern) => {
      if (boundedPatterns.has(pattern.source)) boundedSeen.add(pattern.source)
      return !boundedPatterns.has(pattern.source)
    })
    const safe = safeVerdicts(new Set(checked.map((pattern) => `/${pattern.source}/${pattern.flags}`)))
    for (const pattern of checked) {
      const key = `/${pattern.source}/${pattern.flags}`
      if (safe.known.has(key)) continue
      const status = await verdict(pattern)
      if (status === 'safe') safe.known.add(key)
      else unsafe.push(`${pattern.where}: /${pattern.source}/${pattern.flags} is ${status}`)
    }
    safe.save()
    expect(unsafe).toEqual([])
    // An entry for a pattern that is gone would let a new one of the same text in unchecked.
    expect([...boundedPatterns.keys()].filter((source) => !boundedSeen.has(source))).toEqual([])
  }, 600_000)
})
