import fs from 'node:fs'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {describe, expect, it} from 'vitest'
import {lintFiles} from '../src/lint.js'
import {toResults} from '../src/reporters/result.js'

/** The real corpus lives beside the project on developer machines and in CI, never on a user's. */
const corpus = fileURLToPath(new URL('../../shared/corpus/real', import.meta.url))
const present = fs.existsSync(corpus)
const repositories = present ? fs.readdirSync(corpus).filter((name) => fs.existsSync(path.join(corpus, name, '.planning'))) : []

describe.skipIf(!present)('the real corpus (../shared/corpus/real)', () => {
  it('has the repositories the corpus README promises', () => {
    expect(repositories.length).toBe(47)
  })

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
})
