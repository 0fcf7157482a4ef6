import fs from 'node:fs'
import path from 'node:path'
import {describe, expect, it} from 'vitest'
import {planNodeFromText, siblingNode} from '../../src/graph/graph.js'
import {treeMarkdownFiles} from '../../src/graph/tree-files.js'
import {corpus, corpusPresent, corpusRepositories} from '../support/corpus.js'

/**
 * The tree scan reads a sibling's graph facts from its frontmatter with the
 * entries no fact reads left out (`compactFrontmatter`): on every Markdown file
 * of every corpus tree, they are the facts read from the whole frontmatter.
 */
describe.skipIf(!corpusPresent)('graph facts of the compact frontmatter, on the whole corpus', () => {
  it('equal those of the whole frontmatter on every file', () => {
    const differences: string[] = []
    let plans = 0
    for (const name of corpusRepositories) {
      for (const file of treeMarkdownFiles(path.join(corpus, name, '.planning'))) {
        if (file.summary) continue
        const text = fs.readFileSync(file.path, 'utf8')
        const whole = planNodeFromText(file.path, text)
        if (whole) plans++
        if (JSON.stringify(siblingNode(file.path, text)) !== JSON.stringify(whole)) differences.push(path.relative(corpus, file.path))
      }
    }
    expect(differences).toEqual([])
    expect(plans).toBeGreaterThan(5000)
    // Two parses of every file of the corpus: about 20 s alone, three minutes on a loaded machine.
  }, 300_000)
})
