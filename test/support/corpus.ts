import {createHash} from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {afterAll, describe, expect, it} from 'vitest'
import {lintFiles} from '../../src/lint.js'
import {buildDocument, parseMarkdown, type PlanDocument} from '../../src/model/document.js'
import {markerOf} from '../../src/model/markers.js'
import {toResults} from '../../src/reporters/result.js'
import {readRecord, writeRecord} from './record.js'

/** The real corpus lives beside the project on developer machines and in CI, never on a user's. */
export const corpus = fileURLToPath(new URL('../../../shared/corpus/real', import.meta.url))
export const corpusPresent = fs.existsSync(corpus)

/** The corpus repositories with a planning tree, by name. */
export const corpusRepositories: string[] = corpusPresent
  ? fs.readdirSync(corpus).filter((name) => fs.existsSync(path.join(corpus, name, '.planning'))).sort()
  : []

/** The repositories `SOURCES.tsv` lists (one row each after the header). */
export function listedRepositories(): string[] {
  const rows = fs.readFileSync(path.join(corpus, 'SOURCES.tsv'), 'utf8').trim().split('\n').slice(1)
  return rows.map((row) => row.split('\t')[0].replace('/', '__')).sort()
}

function bytesUnder(folder: string): number {
  let bytes = 0
  for (const entry of fs.readdirSync(folder, {recursive: true, withFileTypes: true})) {
    if (entry.isFile()) bytes += fs.statSync(path.join(entry.parentPath, entry.name)).size
  }
  return bytes
}

/**
 * The repositories of part `part` (1-based) of `parts`: the largest trees are
 * dealt first, each to the part with the fewest bytes so far, so that vitest's
 * workers, one test file each, finish at about the same time.
 */
export function corpusPart(part: number, parts: number): string[] {
  const sized = corpusRepositories.map((name) => ({name, bytes: bytesUnder(path.join(corpus, name, '.planning'))}))
  sized.sort((a, b) => b.bytes - a.bytes || a.name.localeCompare(b.name))
  const bins = Array.from({length: parts}, () => ({bytes: 0, names: [] as string[]}))
  for (const repository of sized) {
    const lightest = bins.reduce((best, bin) => (bin.bytes < best.bytes ? bin : best))
    lightest.bytes += repository.bytes
    lightest.names.push(repository.name)
  }
  return bins[part - 1].names
}

/** The number of test files the corpus check is split into (test/corpus/part-N.test.ts). */
export const corpusParts = 4

/** The Markdown files of a repository's planning tree (the extensions the CLI lints), relative to it. */
function markdownFiles(repository: string): string[] {
  const root = path.join(corpus, repository, '.planning')
  return fs
    .readdirSync(root, {recursive: true, withFileTypes: true})
    .filter((entry) => entry.isFile() && /\.(md|markdown)$/.test(entry.name))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .sort()
}

/** What the document model takes from CommonMark's reading of a file: code regions and headings. */
function commonMarkReading(document: PlanDocument) {
  return {
    code: document.opaque.filter((region) => region.kind === 'indented' || region.kind === 'inline'),
    headings: document.headings
  }
}

type Reading = ReturnType<typeof commonMarkReading>

const packageVersion = (name: string) => (JSON.parse(fs.readFileSync(fileURLToPath(new URL(`../../node_modules/${name}/package.json`, import.meta.url)), 'utf8')) as {version: string}).version

/** The packages remark's reading of a file depends on. */
const oracleParsers = ['remark-parse', 'mdast-util-from-markdown', 'micromark', 'mdast-util-frontmatter', 'mdast-util-to-string']

/**
 * remark's reading of each corpus file, kept between runs by the file's hash
 * (under node_modules/.cache, for these versions of the parser): a full parse
 * of the corpus takes minutes, and the same text always parses the same.
 */
const oracleCache = fileURLToPath(
  new URL(
    `../../node_modules/.cache/planlint-commonmark-reading/${oracleParsers.map((name) => `${name}@${packageVersion(name)}`).join('+')}/`,
    import.meta.url
  )
)

function remarkReadings(repository: string): {readings: Map<string, Reading>; save: () => void} {
  const file = path.join(oracleCache, `${repository}.json`)
  const readings = new Map<string, Reading>(fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Array<[string, Reading]>) : [])
  const size = readings.size
  return {
    readings,
    save: () => {
      if (readings.size === size) return
      fs.mkdirSync(oracleCache, {recursive: true})
      fs.writeFileSync(file, JSON.stringify([...readings]))
    }
  }
}

/**
 * The repositories whose every file the scan read as remark's tree does, under
 * the document model as it is now, recorded in the repository
 * (test/fixtures/corpus-agreed/part-N.json) as a digest of each repository's
 * file names and texts: the same texts under the same model read the same, so
 * a fresh clone parses the corpus with remark (minutes) only when the model,
 * the parsers, this check or the corpus changed. A run outside CI writes the
 * record back when it changed, and it is committed with the change.
 */
function agreementRecord(part: number): {agreed: (repository: string, digest: string) => boolean; add: (repository: string, digest: string) => void; save: (repositories: string[]) => void} {
  const file = fileURLToPath(new URL(`../fixtures/corpus-agreed/part-${part}.json`, import.meta.url))
  const record = readRecord<{model: string; agreed: Record<string, string>}>(file)
  const agreed = new Map(record?.model === modelDigest ? Object.entries(record.agreed) : [])
  const byName = ([a]: [string, string], [b]: [string, string]) => a.localeCompare(b)
  return {
    agreed: (repository, digest) => agreed.get(repository) === digest,
    add: (repository, digest) => agreed.set(repository, digest),
    save: (repositories) => writeRecord(file, {model: modelDigest, agreed: Object.fromEntries([...agreed].filter(([repository]) => repositories.includes(repository)).sort(byName))})
  }
}

/** What a scan's agreement depends on, read once per run: `src/model/`'s sources, this check and the parsers' versions. */
const modelDigest = (() => {
  const model = fileURLToPath(new URL('../../src/model/', import.meta.url))
  const hash = createHash('sha1')
  for (const name of fs.readdirSync(model).sort()) hash.update(name).update(fs.readFileSync(path.join(model, name)))
  hash.update(fs.readFileSync(fileURLToPath(import.meta.url)))
  for (const name of ['micromark', 'micromark-core-commonmark', 'micromark-extension-frontmatter', 'yaml', ...oracleParsers]) hash.update(`${name}@${packageVersion(name)}`)
  return hash.digest('hex')
})()

/** The kind of a document as `documentKind` decides it with every part of the model built (no shortcut for `other`). */
function fullKind(document: PlanDocument): string {
  if (document.kind === 'plan' || document.kind === 'summary') return document.kind
  if (document.frontmatter?.entries.has('plan') && document.tasks.length > 0) return 'plan'
  if (document.headings.some((heading) => heading.depth === 2 && markerOf(heading.text))) return 'agent-output'
  return 'other'
}

/**
 * Checks each repository of one part: the CLI lints it without a crash, every
 * message lies inside its file, and the document model's own scan of each
 * file (src/model/scan.ts) reads code and headings as remark's syntax tree
 * does, and finds the same kind.
 */
export function checkCorpusPart(part: number): void {
  describe.skipIf(!corpusPresent)(`the real corpus (../shared/corpus/real), part ${part} of ${corpusParts}`, () => {
    // Dealt once: dealing sizes every file of the corpus.
    const repositories = corpusPresent ? corpusPart(part, corpusParts) : []
    it.each(repositories)('%s lints without a crash, and every message lies inside its file', async (repository) => {
      const files = await lintFiles({paths: [path.join(corpus, repository, '.planning')], cwd: corpus, preset: 'recommended'})
      expect(files.length).toBeGreaterThan(0)
      for (const result of toResults(files)) {
        const lines = fs.readFileSync(result.filePath, 'utf8').split('\n')
        for (const message of result.messages) {
          const where = `${result.filePath}:${message.line}:${message.column} ${message.message}`
          expect(message.ruleId, where).not.toBeNull()
          expect(message.message, where).not.toMatch(/crashed/)
          for (const [line, column] of [[message.line, message.column], [message.endLine ?? message.line, message.endColumn ?? message.column]]) {
            expect(line, where).toBeGreaterThanOrEqual(1)
            expect(line, where).toBeLessThanOrEqual(lines.length)
            expect(column, where).toBeGreaterThanOrEqual(1)
            expect(column, where).toBeLessThanOrEqual(lines[line - 1].length + 1)
          }
        }
      }
    }, 300_000)

    const record = agreementRecord(part)
    it.each(repositories)('%s: the model reads code, headings and kinds as from remark\'s tree', (repository) => {
      const root = path.join(corpus, repository, '.planning')
      const files = markdownFiles(repository).map((file) => {
        const text = fs.readFileSync(path.join(root, file), 'utf8')
        return {file, text, hash: createHash('sha1').update(text).digest('hex')}
      })
      const digest = createHash('sha1')
      for (const {file, hash} of files) digest.update(file).update('\0').update(hash)
      const repositoryDigest = digest.digest('hex')
      if (record.agreed(repository, repositoryDigest)) return
      const {readings, save} = remarkReadings(repository)
      const differences: string[] = []
      for (const {file, text, hash} of files) {
        const key = `${file}\0${hash}`
        let remarkReading = readings.get(key)
        if (!remarkReading) readings.set(key, (remarkReading = commonMarkReading(buildDocument(text, path.join(root, file), parseMarkdown(text)))))
        const scanned = buildDocument(text, path.join(root, file))
        const kind = scanned.kind
        if (JSON.stringify(commonMarkReading(scanned)) !== JSON.stringify(remarkReading)) differences.push(`${file}: code or headings`)
        if (kind !== fullKind(scanned)) differences.push(`${file}: kind ${kind}, not ${fullKind(scanned)}`)
      }
      save()
      expect(differences).toEqual([])
      record.add(repository, repositoryDigest)
    }, 600_000)

    afterAll(() => record.save(repositories))
  })
}
