import fs from 'node:fs'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {describe, expect, it} from 'vitest'
import {lintFiles} from '../../src/lint.js'
import {toResults} from '../../src/reporters/result.js'

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

/** Lints each repository of one part: no crash, and every message lies inside its file. */
export function checkCorpusPart(part: number): void {
  describe.skipIf(!corpusPresent)(`the real corpus (../shared/corpus/real), part ${part} of ${corpusParts}`, () => {
    it.each(corpusPresent ? corpusPart(part, corpusParts) : [])('%s lints without a crash, and every message lies inside its file', async (repository) => {
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
  })
}
