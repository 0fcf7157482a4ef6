import {remark} from 'remark'
import remarkFrontmatter from 'remark-frontmatter'
import {VFile} from 'vfile'
import {describe, expect, it} from 'vitest'
import {remarkRule} from '../src/remark.js'
import {remarkPlugins} from '../src/plugins.js'

const autonomousFlag = remarkPlugins['autonomous-flag']

const plan = '---\nphase: 1\nplan: 1\nautonomous: "yes"\n---\n\n<task type="auto"><name>n</name></task>\n'

async function lint(plugins: Array<[unknown, unknown?]>, text = plan) {
  const file = new VFile({path: '/tmp/no-such-tree/.planning/phases/01-x/01-01-PLAN.md', value: text})
  let processor = remark().use(remarkFrontmatter, ['yaml'])
  for (const [plugin, config] of plugins) processor = processor.use(plugin as never, config as never)
  await processor.process(file)
  return file.messages
}

describe('the remark adapter', () => {
  it('runs a rule at its own default severity when none is given', async () => {
    const [message] = await lint([[autonomousFlag]])
    expect(message).toMatchObject({ruleId: 'autonomous-flag', source: 'planlint', fatal: true})
    expect(message.url).toMatch(/docs\/rules\/autonomous-flag\.md$/)
  })

  it.each([
    ['off', 0],
    [0, 0],
    ['warn', 1],
    [['warn'], 1],
    [[1, {}], 1],
    ['error', 2],
    [[2], 2],
    ['on', 2],
    [true, 2]
  ])('takes the remark-lint severity %j', async (config, level) => {
    const messages = await lint([[autonomousFlag, config]])
    expect(messages.length).toBe(level === 0 ? 0 : 1)
    if (level > 0) expect(messages[0].fatal).toBe(level === 2)
  })

  it('carries a fix as place, actual and expected', async () => {
    const [message] = await lint([[autonomousFlag]])
    expect(message.place).toMatchObject({start: {line: 4, column: 13}, end: {line: 4, column: 18}})
    expect(message.actual).toBe('"yes"')
    expect(message.expected).toEqual(['true'])
  })

  it('reports a rule that throws as a message with its id, and the other rules still run', async () => {
    const broken = remarkRule({
      id: 'broken-rule',
      description: 'Always throws.',
      severity: 'warning',
      kinds: ['plan'],
      defaultOptions: {},
      check() {
        throw new Error('boom')
      }
    })
    const messages = await lint([[broken], [autonomousFlag]])
    expect(messages.map((message) => [message.ruleId, message.reason.slice(0, 48)])).toEqual([
      ['broken-rule', 'Rule `broken-rule` crashed on this file: boom. P'],
      ['autonomous-flag', '`autonomous` is `"yes"`, not a YAML boolean; thi']
    ])
  })

  it('gives no message on a file it does not recognise', async () => {
    const file = new VFile({path: '/tmp/x/.planning/NOTES.md', value: '# Notes\n\nautonomous: true\n'})
    await remark().use(remarkFrontmatter, ['yaml']).use(autonomousFlag).process(file)
    expect(file.messages).toEqual([])
  })
})
