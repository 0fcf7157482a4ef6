import {rules, type RuleId} from '../rules/index.js'
import {remarkRule, type RemarkLintRule} from './remark.js'

/**
 * The remark plugin of every rule, made once from its definition: the
 * presets list these, and `planlint/rules/<id>` default-exports the same
 * plugin (`dist/plugins/<id>.js`, written by `scripts/rule-plugins.mjs`), so
 * unified sees one plugin however a configuration names it.
 */
export const remarkPlugins = Object.fromEntries(Object.entries(rules).map(([id, rule]) => [id, remarkRule(rule)])) as Record<RuleId, RemarkLintRule>
