import {remark} from 'remark'
import remarkFrontmatter from 'remark-frontmatter'
import {VFile} from 'vfile'
import {describe, expect, it} from 'vitest'
import {remarkPlugins} from '../src/plugins.js'

const taskMarkup = remarkPlugins['task-markup']

// A stray fence (a warning finding) above an unclosed `<action>` (an error finding of the same rule).
const text = '<task type="auto">\n  <action>Do it\n</task>\n\n```\n<task type="auto">\n'

async function severities(config?: unknown): Promise<string[]> {
  const file = new VFile({path: '/p/.planning/phases/01-x/01-01-PLAN.md', value: text})
  await remark().use(remarkFrontmatter, ['yaml']).use(taskMarkup, config).process(file)
  return file.messages.map((message) => `${message.fatal ? 'error' : 'warning'} ${message.reason.slice(0, 22)}`)
}

describe('a finding with its own severity', () => {
  it('is a warning inside an error rule at its default severity', async () => {
    expect(await severities()).toEqual(['error `<action>` is not clos', 'warning This code fence is nev'])
  })

  it('stays a warning when the rule is configured as an error, and the rest follow the configuration', async () => {
    expect(await severities('error')).toEqual(['error `<action>` is not clos', 'warning This code fence is nev'])
    expect(await severities('warn')).toEqual(['warning `<action>` is not clos', 'warning This code fence is nev'])
  })

  it('is silenced with its rule', async () => {
    expect(await severities('off')).toEqual([])
  })
})
