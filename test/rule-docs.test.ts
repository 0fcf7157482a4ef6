import fs from 'node:fs'
import {describe, expect, it} from 'vitest'
import {rules} from '../rules/index.js'
import {docExamples, fixExample, runExample} from './support/doc-examples.js'

const ruleIds = Object.keys(rules) as Array<keyof typeof rules>

describe.each(ruleIds)('docs/rules/%s.md', (ruleId) => {
  it('exists and has incorrect and correct examples', () => {
    expect(fs.existsSync(new URL(`../docs/rules/${ruleId}.md`, import.meta.url))).toBe(true)
    const examples = docExamples(ruleId)
    expect(examples.some((example) => example.expected.length > 0)).toBe(true)
    expect(examples.some((example) => example.expected.length === 0)).toBe(true)
  })

  // Only for rules that fix or suggest: for the others it would pass without checking anything.
  if (rules[ruleId].fixable) {
    it('says where its fix works', () => {
      const page = fs.readFileSync(new URL(`../docs/rules/${ruleId}.md`, import.meta.url), 'utf8')
      expect(page).toContain('](../fixing.md)')
    })
  }

  for (const example of fs.existsSync(new URL(`../docs/rules/${ruleId}.md`, import.meta.url)) ? docExamples(ruleId) : []) {
    it(`example: ${example.title}`, async () => {
      expect(await runExample(ruleId, example)).toEqual(example.expected)
    })
    if (example.fixed.length > 0) {
      it(`example: ${example.title}: --fix gives the fixed text`, async () => {
        const fixedTexts = await fixExample(ruleId, example)
        for (const fixed of example.fixed) expect(fixedTexts.get(fixed.path)).toBe(fixed.text)
      })
    }
  }
})
