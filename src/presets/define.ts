import remarkFrontmatter from 'remark-frontmatter'
import type {PluggableList, Preset} from 'unified'
import {rules, type RuleId} from '../../rules/index.js'
import {remarkPlugins} from '../plugins.js'
import suppressionCheck from '../suppression-check.js'

/** A rule's setting in a preset, as remark-lint takes it: a severity, or `[severity, options]`; `on` is the rule's own default. */
export type RuleSetting = 'off' | 'on' | 'warn' | 'error' | ['on' | 'warn' | 'error', Record<string, unknown>]

export type PresetRules = Partial<Record<RuleId, RuleSetting>>

/** A unified preset that also tells other front ends (ESLint) how it sets each rule. */
export type PlanlintPreset = Preset & {planlintRules: Record<RuleId, RuleSetting>}

/**
 * Builds a preset: frontmatter parsing, every rule at its default severity
 * and options unless `overrides` sets it, then the suppression check, which
 * must come last to see which disable comments the rules used.
 */
export function definePreset(overrides: PresetRules): PlanlintPreset {
  const ruleIds = Object.keys(rules) as RuleId[]
  const planlintRules = Object.fromEntries(ruleIds.map((id) => [id, overrides[id] ?? 'on'])) as Record<RuleId, RuleSetting>
  const plugins: PluggableList = [[remarkFrontmatter, ['yaml']]]
  for (const id of ruleIds) {
    const setting = planlintRules[id]
    if (setting !== 'off') plugins.push([remarkPlugins[id], setting])
  }
  plugins.push(suppressionCheck)
  return {plugins, planlintRules}
}

/** A rule's default options, for presets that extend them. */
export function defaultsOf<Id extends RuleId>(id: Id): Record<string, unknown> {
  return rules[id].defaultOptions as Record<string, unknown>
}
