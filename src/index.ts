import {presets} from './presets/index.js'

export {rules, type RuleId} from '../rules/index.js'
export {remarkRule, documentOf, type RemarkLintRule} from './remark.js'
export {remarkPlugins} from './plugins.js'
export {default as suppressionCheck} from './suppression-check.js'
export {buildDocument, parseMarkdown, type PlanDocument, type DocumentKind} from './model/document.js'
export {PlanGraph, type PlanNode} from './graph/graph.js'
export {LintSession, processSession, type SessionOptions} from './session.js'
export {defineRule, type Edit, type Finding, type RuleDefinition, type RuleSpec, type Severity} from './rule.js'
export {presets}
const recommended = presets.recommended
export default presets.recommended
// What `require('planlint')` returns from a CommonJS config (`.remarkrc.cjs`): Node's require() of
// an ES module gives this export, when there is one, instead of the module namespace.
export {recommended as 'module.exports'}
