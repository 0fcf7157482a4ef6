import path from 'node:path'
import type {Plugin} from 'unified'
import {ConfigurationFiles} from '../cache.js'
import {rules} from '../../rules/index.js'
import {presets, type PresetName} from '../presets/index.js'
import {invalidOptionsMessage, ruleSetting, suppressionLevel, type RemarkLintRule} from '../remark.js'
import {resolveOptions, type RuleDefinition, type RunSettings} from '../rule.js'
import type {EnabledRule} from '../session.js'
import {UsageError} from './usage-error.js'

export {UsageError}

const severityNames = ['off', 'warn', 'error'] as const

/** A planlint rule's plugin name (`planlint:<id>`, the name `remarkRule` gives it), or `undefined` for another plugin. */
const ruleIdOf = (name: string) => (name.startsWith('planlint:') && Object.hasOwn(rules, name.slice(9)) ? name.slice(9) : undefined)

export interface ConfigOptions {
  cwd: string
  preset?: PresetName
  config?: string
  /** The run's view of the configuration files in each folder (shared with `--cache`'s keys); a loader's own when absent. */
  files?: ConfigurationFiles
}

/** A file's configuration: where it comes from, its plugins with their settings, in order, and its shared settings. */
export interface FileConfig {
  source: string
  plugins: Array<{name: string; ruleId?: string; setting: unknown; plugin: unknown}>
  /** `settings.planlint` of the configuration. */
  settings: RunSettings | undefined
  /** A preset of planlint's own, read without unified-engine: it has no plugin of another package to attach. */
  ownPreset?: true
}

/** A plugin of a configuration as unified-engine loads it (`[plugin, setting]`), named. */
export const pluginEntry = (plugin: unknown, setting: unknown): FileConfig['plugins'][number] => {
  const name = (typeof plugin === 'function' && plugin.name) || '(anonymous plugin)'
  return {name, ruleId: ruleIdOf(name), setting, plugin}
}

/**
 * Loads the configuration of files as the lint run does (a `.remarkrc*` or
 * `package.json#remarkConfig` above each file, the recommended preset without
 * one, or `--preset` / `--config`); one loader per run, which reads each
 * folder's configuration once. A file with no configuration file above it
 * (or a run with `--preset` and no `--config`) gets the preset as unified-engine
 * would give it, without loading unified-engine (`test/configuration.test.ts`
 * compares the two).
 */
export function configLoader(options: ConfigOptions): (filePath: string) => Promise<FileConfig> {
  let engine: Promise<(filePath: string) => Promise<FileConfig>> | undefined
  const files = options.files ?? new ConfigurationFiles()
  const presetOnly = (filePath: string) => options.config === undefined && (options.preset !== undefined || !files.above(path.dirname(path.resolve(filePath))))
  return async (filePath) => (presetOnly(filePath) ? presetConfig(options.preset) : (await (engine ??= engineConfigLoader(options)))(filePath))
}

/** A planlint preset (`--preset`, else the recommended one) as unified-engine loads it: its plugins in order, each with its setting. */
export function presetConfig(preset: PresetName | undefined): FileConfig {
  const plugins = (presets[preset ?? 'recommended'].plugins ?? []).map((entry) => (Array.isArray(entry) ? pluginEntry(entry[0], entry[1]) : pluginEntry(entry, undefined)))
  const source = preset ? `preset ${preset} (--preset)` : 'preset recommended (no .remarkrc* or package.json#remarkConfig found)'
  return {source, plugins, settings: undefined, ownPreset: true}
}

/** `configLoader` through unified-engine's `Configuration`, for every file. */
export async function engineConfigLoader(options: ConfigOptions): Promise<(filePath: string) => Promise<FileConfig>> {
  const {Configuration} = await import('unified-engine')
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
    return {source, plugins: loaded.plugins.map(([plugin, setting]) => pluginEntry(plugin, setting)), settings: loaded.settings?.planlint}
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

/** Whether a plugin is planlint's: a rule (of any copy of planlint, or made with `remarkRule`) or `planlint:suppression`. */
const isPlanlintPlugin = (entry: FileConfig['plugins'][number]) => definitionOf(entry) !== undefined || entry.name === 'planlint:suppression'

/**
 * Whether a configuration runs nothing but planlint: its rules,
 * `planlint:suppression` and remark-frontmatter (whose reading of the
 * frontmatter planlint's own scan makes). Its messages are then those of
 * `LintSession.lint` on the text alone, as the CLI lints; any other plugin's
 * messages need remark's syntax tree and a run of the plugin.
 */
export function onlyPlanlintPlugins(config: FileConfig): boolean {
  return config.plugins.every((entry) => entry.setting === false || isPlanlintPlugin(entry) || entry.name === 'remarkFrontmatter')
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
    // planlint's own presets give options that fit (test/configuration.test.ts checks them through unified-engine): no schema compiled for them.
    const problem = level > 0 && options !== undefined && !config.ownPreset ? rule.optionsProblem(options) : undefined
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
export async function attachOtherPlugins(config: FileConfig): Promise<void> {
  if (config.ownPreset) return
  const {remark} = await import('remark')
  const processor = remark()
  for (const entry of config.plugins) {
    if (isPlanlintPlugin(entry) || entry.setting === false) continue
    processor.use(entry.plugin as Plugin<[unknown]>, entry.setting)
  }
  processor.freeze()
}
