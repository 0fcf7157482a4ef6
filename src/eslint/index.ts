import markdown, {type MarkdownRuleDefinition} from '@eslint/markdown'
import type {ESLint, Linter} from 'eslint'
import {rules, type RuleId} from '../../rules/index.js'
import {describeEdit} from '../edits.js'
import type {PlanlintPreset, RuleSetting} from '../presets/define.js'
import {presets} from '../presets/index.js'
import {ruleSetting} from '../remark.js'
import {docsUrl, type Edit, type RuleDefinition, type RunSettings} from '../rule.js'
import {processSession, type LintFinding} from '../session.js'
import {version} from '../version.js'

/**
 * planlint's rules as ESLint rules on `@eslint/markdown`'s language. Each one
 * runs the same rule definition as the remark plugin, on the same document
 * model, built from ESLint's own source text and mdast tree.
 */

type Options = [Record<string, unknown>]
export type PlanlintEslintRule = MarkdownRuleDefinition<{RuleOptions: Options}>

/** Turns a planlint rule definition into an ESLint rule for `@eslint/markdown`. */
export function eslintRule(rule: RuleDefinition<any>): PlanlintEslintRule {
  return {
    meta: {
      type: 'problem',
      docs: {description: rule.description, url: docsUrl(rule.id), recommended: true},
      ...(rule.fixable === 'fix' ? {fixable: 'code' as const} : {}),
      // A rule that fixes may still only suggest when the repair is ambiguous.
      hasSuggestions: rule.fixable !== undefined,
      schema: [rule.optionsSchema],
      // No `defaultOptions` here: ESLint would merge them deeply, while a planlint option replaces
      // its default whole (`checkpoints: {}` means none); `runRule` merges as the remark plugins do.
      languages: ['markdown/commonmark', 'markdown/gfm']
    },
    create(context) {
      const {sourceCode} = context
      const asFix = (edit: Edit) => (fixer: {replaceTextRange(range: [number, number], text: string): unknown}) =>
        fixer.replaceTextRange(edit.range, edit.text) as never
      const report = (finding: LintFinding) =>
        context.report({
          loc: {start: sourceCode.getLocFromIndex(finding.place[0]), end: sourceCode.getLocFromIndex(finding.place[1])},
          message: finding.message,
          ...(finding.fix ? {fix: asFix(finding.fix)} : {}),
          ...(finding.suggestions
            ? {suggest: finding.suggestions.map((edit) => ({desc: describeEdit(sourceCode.text, edit), fix: asFix(edit)}))}
            : {})
        })
      return {
        root(tree) {
          // Without `frontmatter: "yaml"` the language reads frontmatter as Markdown (a `---` rule, a setext heading).
          const treeHasFrontmatter = tree.children[0]?.type === 'yaml' || !sourceCode.text.startsWith('---')
          // ESLint sets the severity; the level only tells `lint` to run the rule.
          const findings = processSession().lint(context.physicalFilename, sourceCode.text, {
            rules: [{rule, level: 2, options: context.options[0]}],
            tree,
            treeHasFrontmatter,
            // ESLint's shared settings, as in a remark configuration: `settings: {planlint: {includeExecuted: true}}`.
            settings: (context.settings as {planlint?: RunSettings} | undefined)?.planlint
          })
          for (const finding of findings) report(finding)
        }
      }
    }
  }
}

/** ESLint severities for remark's levels. */
const severities = ['off', 'warn', 'error'] as const

/** The `rules` of an ESLint config that turns on what a planlint preset turns on, as it configures them. */
function eslintRulesOf(preset: PlanlintPreset): Linter.RulesRecord {
  const entries: Linter.RulesRecord = {}
  for (const [id, setting] of Object.entries(preset.planlintRules) as Array<[RuleId, RuleSetting]>) {
    if (setting === 'off') continue
    const {level, options} = ruleSetting(rules[id], setting)
    entries[`planlint/${id}`] = options === undefined ? severities[level] : [severities[level], options]
  }
  return entries
}

/** Where plan documents live; the configs apply to these files only. */
const planningFiles = ['**/.planning/**/*.md']

const plugin = {
  meta: {name: 'planlint', version, namespace: 'planlint'},
  rules: Object.fromEntries(Object.values(rules).map((rule) => [rule.id, eslintRule(rule)])),
  configs: {} as Record<keyof typeof presets, Linter.Config[]>
}

// A config per planlint preset, ready to spread into `eslint.config.js`.
for (const [name, preset] of Object.entries(presets) as Array<[keyof typeof presets, PlanlintPreset]>) {
  plugin.configs[name] = [
    {
      name: `planlint/${name}`,
      files: planningFiles,
      plugins: {markdown, planlint: plugin as unknown as ESLint.Plugin},
      language: 'markdown/commonmark',
      languageOptions: {frontmatter: 'yaml'},
      rules: eslintRulesOf(preset)
    }
  ]
}

export default plugin
