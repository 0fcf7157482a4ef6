import path from 'node:path'
import {remark} from 'remark'
import type {Plugin} from 'unified'
import {Configuration} from 'unified-engine'
import {rules} from '../../rules/index.js'
import {presets, type PresetName} from '../presets/index.js'
import {invalidOptionsMessage, ruleSetting, suppressionLevel, type RemarkLintRule} from '../remark.js'
import {resolveOptions, type RuleDefinition, type RunSettings} from '../rule.js'
import type {EnabledRule} from '../session.js'
import {UsageError} from './usage-error.js'

export {UsageError}

const severityNames = ['off', 'warn', 'error'] as const

/** A planlint rule's plugin name (`planlint:<id>`, from unified-lint-rule's origin), or `undefined` for another plugin. */
const ruleIdOf = (name: string) => (name.startsWith('planlint:') && Object.hasOwn(rules, name.slice(9)) ? name.slice(9) : undefined)

export interface ConfigOptions {
  cwd: string
  preset?: PresetName
  config?: string
}

/** A file's configuration: where it comes from, its plugins with their settings, in order, and its shared settings. */
export interface FileConfig {
  source: string
  plugins: Array<{name: string; ruleId?: string; setting: unknown; plugin: unknown}>
  /** `settings.planlint` of the configuration. */
  settings: RunSettings | undefined
}

/**
 * Loads the configuration of files as the lint run does (a `.remarkrc*` or
 * `package.json#remarkConfig` above each file, the recommended preset without
 * one, or `--preset` / `--config`); one loader per run, which reads each
 * folder's configuration once.
 */
export function configLoader(options: ConfigOptions): (filePath: string) => Promise<FileConfig> {
  const configuration = new Configuration({
    cwd: options.cwd,
    rcName: '.remarkrc',
    packageField: 'remarkConfig',
    rcPath: options.config,
    detectConfig: options.config !== undefined || options.preset === undefined,
    defaultConfig: options.preset ? undefined : presets.recommended,
    plugins: options.preset ? [presets[options.preset]] : []
  })
  return async (filePath) => {
    const loaded = await new Promise<{filePath?: string; plugins: Array<[unknown, ...unknown[]]>; settings?: {planlint?: RunSettings}}>((resolve, reject) => {
      configuration.load(filePath, (error, result) => {
        const cause = error?.cause instanceof Error ? error.cause : error
        if (cause || !result) reject(new UsageError((cause ?? new Error('no configuration')).message.split('\n')[0]))
        else resolve(result)
      })
    })
    const source = options.preset
      ? `preset ${options.preset} (--preset)`
      : loaded.filePath
        ? path.relative(options.cwd, loaded.filePath)
        : 'preset recommended (no .remarkrc* or package.json#remarkConfig found)'
    return {
      source,
      plugins: loaded.plugins.map(([plugin, setting]) => {
        const name = (typeof plugin === 'function' && plugin.name) || '(anonymous plugin)'
        return {name, ruleId: ruleIdOf(name), setting, plugin}
      }),
      settings: loaded.settings?.planlint
    }
  }
}

/** The planlint rules a configuration turns on, with their severity and options (merged over the rule's defaults). */
export function enabledRules(config: FileConfig): Record<string, [string, unknown]> {
  const enabled: Record<string, [string, unknown]> = {}
  for (const {ruleId, setting} of config.plugins) {
    if (!ruleId) continue
    const rule = rules[ruleId as keyof typeof rules]
    const {level, options} = ruleSetting(rule, setting)
    if (level === 0) delete enabled[`planlint/${ruleId}`]
    else enabled[`planlint/${ruleId}`] = [severityNames[level], resolveOptions(rule, options)]
  }
  return enabled
}

/** The rule definition of a plugin: planlint's own rules, and rules made with `remarkRule` (a plugin's `rule`). */
function definitionOf(entry: FileConfig['plugins'][number]): RuleDefinition<any> | undefined {
  const own = (entry.plugin as Partial<RemarkLintRule> | undefined)?.rule
  if (own && typeof own.check === 'function' && typeof own.optionsProblem === 'function') return own
  return entry.ruleId ? rules[entry.ruleId as keyof typeof rules] : undefined
}

/**
 * What `LintSession.lint` runs under a configuration: its planlint rules in
 * order (a rule named twice, by two copies of planlint, runs once, as last
 * set) and the level of `planlint:suppression`. Options that do not fit a
 * rule's schema are a `UsageError` naming the rule and the option. Other
 * plugins are loaded (so a missing one is an error) but not run.
 */
export function lintRulesOf(config: FileConfig): {rules: EnabledRule[]; suppressions: 0 | 1 | 2} {
  const enabled = new Map<string, EnabledRule | undefined>()
  let suppressions: 0 | 1 | 2 = 0
  for (const entry of config.plugins) {
    if (entry.name === 'planlint:suppression') {
      suppressions = suppressionLevel(entry.setting)
      continue
    }
    const rule = definitionOf(entry)
    if (!rule) continue
    const {level, options} = ruleSetting(rule, entry.setting)
    const problem = level > 0 && options !== undefined ? rule.optionsProblem(options) : undefined
    if (problem !== undefined) throw new UsageError(invalidOptionsMessage(rule, problem))
    enabled.set(rule.id, level === 0 ? undefined : {rule, level, options})
  }
  return {rules: [...enabled.values()].filter((entry) => entry !== undefined), suppressions}
}

/**
 * Attaches a configuration's other plugins (not planlint's) to a processor,
 * as remark would before running them, and throws what they throw: a plugin
 * that is not installed is an error about it, not a run that quietly skips it.
 * The CLI runs only planlint's rules (docs/cli.md).
 */
export function attachOtherPlugins(config: FileConfig): void {
  const processor = remark()
  for (const entry of config.plugins) {
    if (definitionOf(entry) || entry.name === 'planlint:suppression' || entry.setting === false) continue
    processor.use(entry.plugin as Plugin<[unknown]>, entry.setting)
  }
  processor.freeze()
}
