import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {corpusPart, corpusParts, corpusPresent, corpusRepositories, listedRepositories} from '../support/corpus.js'

describe.skipIf(!corpusPresent)('the corpus check (test/corpus/part-N.test.ts)', () => {
  it('covers every repository SOURCES.tsv lists', () => {
    expect(corpusRepositories).toEqual(listedRepositories())
  })

  it('has one test file per part, and the parts split the repositories without overlap', () => {
    const files = fs.readdirSync(path.dirname(new URL(import.meta.url).pathname)).filter((name) => /^part-\d+\.test\.ts$/.test(name))
    expect(files.length).toBe(corpusParts)
    const dealt = Array.from({length: corpusParts}, (_, index) => corpusPart(index + 1, corpusParts)).flat()
    expect(dealt.sort()).toEqual(corpusRepositories)
  })
})
