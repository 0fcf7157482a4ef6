import path from 'node:path'
import {remark} from 'remark'
import {VFile} from 'vfile'
import {afterAll, describe, expect, it} from 'vitest'
import {rules} from '../rules/index.js'
import {presets} from '../src/presets/index.js'
import {LintSession} from '../src/session.js'
import {brokenPlan, removeTree, writeTree} from './support/tree.js'

/** `LintSession.lint`, the one call behind every front end, gives what the remark plugins give. */
const plan = '.planning/phases/01-storage/01-01-PLAN.md'
const root = writeTree([{path: plan, text: brokenPlan}], 'planlint-session-lint-')
afterAll(() => removeTree(root))

describe('session.lint', () => {
  it('gives the messages remark gives with the same rules, at the same places, with the same fixes', async () => {
    const filePath = path.join(root, plan)
    const enabled = Object.values(rules)
      .filter((rule) => presets.recommended.planlintRules[rule.id as keyof typeof rules] !== 'off')
      .map((rule) => ({rule, level: rule.severity === 'error' ? (2 as const) : (1 as const)}))
    const findings = new LintSession().lint(filePath, brokenPlan, {rules: enabled, suppressions: 1})
    expect(findings.length).toBeGreaterThanOrEqual(2)
    const file = new VFile({path: filePath, value: brokenPlan})
    await remark().use(presets.recommended).process(file)
    const asMessages = findings.map((finding) => [finding.ruleId, finding.severity === 'error', finding.start.line, finding.start.column, finding.end.line, finding.end.column, finding.message, finding.fix?.text])
    const fromRemark = file.messages.map((message) => {
      const place = message.place as {start: {line: number; column: number}; end: {line: number; column: number}}
      const fix = (message as {planlint?: {fix?: {text: string}}}).planlint?.fix
      return [message.ruleId, message.fatal, place.start.line, place.start.column, place.end.line, place.end.column, message.reason, fix?.text]
    })
    expect(asMessages).toEqual(fromRemark)
  })

  it('gives nothing on a file of no plan kind, and runs every rule at its default when given none', () => {
    const session = new LintSession()
    expect(session.lint(path.join(root, '.planning/NOTES.md'), '# Notes\n\nautonomous: yes\n')).toEqual([])
    const all = session.lint(path.join(root, plan), brokenPlan)
    expect(all.map((finding) => finding.ruleId)).toContain('auto-select-option')
    expect(all.every((finding) => finding.url.endsWith(`${finding.ruleId}.md`))).toBe(true)
  })
})
