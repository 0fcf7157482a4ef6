import path from 'node:path'
import type {Root} from 'mdast'
import type {Plugin, Processor} from 'unified'
import type {VFile} from 'vfile'
import {addMessages} from './messages.js'
import {documentOfTree, type PlanDocument} from './model/document.js'
import {defineRule, docsUrl, type RuleDefinition, type RuleSpec, type RunSettings} from './rule.js'
import {processSession, type FileLintOptions, type LintSession} from './session.js'

/** A remark plugin for one planlint rule; `rule` is its framework-independent definition. */
export type RemarkLintRule = Plugin<[unknown?], Root> & {rule: RuleDefinition<any>}

const severityWords = new Set<unknown>([0, 1, 2, 'off', 'warn', 'error', 'on', true, false])

const severityLevels: Record<string, 0 | 1 | 2> = {off: 0, warn: 1, error: 2, false: 0, 0: 0, 1: 1, 2: 2}

/**
 * remark-lint's configuration (`severity`, `[severity, options]`, or options alone),
 * except that an unset or `on` severity means the rule's own default, not warning.
 * Front ends other than remark (the ESLint configs) read presets through this too.
 */
export function ruleSetting(rule: RuleDefinition<any>, config: unknown): {level: 0 | 1 | 2; options: unknown} {
  let severity: unknown = undefined
  let options: unknown = config
  if (Array.isArray(config) && severityWords.has(config[0])) [severity, options] = config
  else if (severityWords.has(config)) [severity, options] = [config, undefined]
  if (severity === undefined || severity === 'on' || severity === true) severity = rule.severity === 'error' ? 2 : 1
  return {level: severityLevels[String(severity)], options}
}

/** planlint's part of a processor's shared settings. */
export function runSettingsOf(processor: Processor): RunSettings | undefined {
  return processor.data('settings')?.planlint
}

/** The shared document model of a file, built by the first rule that runs on it. */
export function documentOf(tree: Root, file: VFile): PlanDocument {
  return documentOfTree(tree, String(file.value), file.path ? path.resolve(file.cwd, file.path) : undefined)
}

/** Lints a file with `options` through its processor's session, the tree remark made shared by every planlint plugin of the processor. */
function lintTree(processor: Processor, tree: Root, file: VFile, options: FileLintOptions): void {
  const text = String(file.value)
  const filePath = file.path ? path.resolve(file.cwd, file.path) : path.resolve('unnamed.md')
  addMessages(file, text, sessionOf(processor).lint(filePath, text, {...options, settings: runSettingsOf(processor), tree}))
}

declare module 'unified' {
  interface Data {
    /** The lint session a processor's planlint plugins share, put there by planlint's own front ends. */
    planlintSession?: LintSession
  }
  interface Settings {
    /** planlint's settings in a remark configuration: `settings: {planlint: {includeExecuted: true}}`. */
    planlint?: RunSettings
  }
}

/** Where a processor carries its lint session (`processor.data(sessionKey, session)`). */
export const sessionKey = 'planlintSession'

/** The session of a processor: the one planlint's own front ends put there, else the process's (remark-cli). */
export function sessionOf(processor: Processor): LintSession {
  return processor.data(sessionKey) ?? processSession()
}

/** The message for options that do not fit a rule's schema, in every front end that reports in words (remark, the CLI). */
export function invalidOptionsMessage(rule: RuleDefinition<any>, problem: string): string {
  return `Invalid options for planlint rule \`${rule.id}\`: ${problem}`
}

/**
 * Turns a rule definition (or a spec, which it defines first) into a
 * remark-lint style plugin (`[severity, options]`) that runs it through
 * `LintSession.lint`. Options that do not fit the rule's schema become one
 * fatal message per file, naming the rule and the option, and the rule does
 * not run.
 */
export function remarkRule<Options extends object>(given: RuleDefinition<Options> | RuleSpec<Options>): RemarkLintRule {
  const rule: RuleDefinition<Options> = 'optionsProblem' in given ? given : defineRule(given)
  const plugin = function (this: Processor, config?: unknown) {
    const {level, options} = ruleSetting(rule, config)
    if (level === 0) return
    const problem = options !== undefined ? rule.optionsProblem(options) : undefined
    if (problem !== undefined) {
      return (_tree: Root, file: VFile) => {
        const message = file.message(invalidOptionsMessage(rule, problem), {place: {line: 1, column: 1}, ruleId: rule.id, source: 'planlint'})
        message.fatal = true
        message.url = docsUrl(rule.id)
        Object.assign(message, {planlint: {invalidOptions: true}})
      }
    }
    const enabled = [{rule, level, options}]
    return (tree: Root, file: VFile) => lintTree(this, tree, file, {rules: enabled})
  } as RemarkLintRule
  Object.defineProperty(plugin, 'name', {value: `planlint:${rule.id}`})
  plugin.rule = rule as RuleDefinition<any>
  return plugin
}

/** The level `planlint:suppression` runs at: remark-lint's severity (`'error'`, `['off']`), a warning by default (it has no options). */
export function suppressionLevel(config: unknown): 0 | 1 | 2 {
  const severity = Array.isArray(config) ? config[0] : config
  if (severity === undefined || severity === 'on' || severity === true || !severityWords.has(severity)) return 1
  return severityLevels[String(severity)]
}

/** `planlint:suppression` (see `src/suppression-check.ts`), last in every preset. */
export const remarkSuppressionCheck = function (this: Processor, config?: unknown) {
  const level = suppressionLevel(config)
  if (level === 0) return
  return (tree: Root, file: VFile) => lintTree(this, tree, file, {rules: [], suppressions: level})
} as Plugin<[unknown?], Root>
Object.defineProperty(remarkSuppressionCheck, 'name', {value: 'planlint:suppression'})
