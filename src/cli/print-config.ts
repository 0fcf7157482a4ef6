import path from 'node:path'
import {Configuration} from 'unified-engine'
import {rules} from '../../rules/index.js'
import {presets, type PresetName} from '../presets/index.js'
import {ruleSetting} from '../remark.js'
import {resolveOptions} from '../rule.js'
import {UsageError} from '../lint.js'

const severityNames = ['off', 'warn', 'error'] as const

/** A planlint rule's plugin name (`planlint:<id>`, from unified-lint-rule's origin), or `undefined` for another plugin. */
const ruleIdOf = (name: string) => (name.startsWith('planlint:') && Object.hasOwn(rules, name.slice(9)) ? name.slice(9) : undefined)

export interface ConfigOptions {
  cwd: string
  preset?: PresetName
  config?: string
}

/** A file's configuration: where it comes from, and its plugins with their settings, in order. */
export interface FileConfig {
  source: string
  plugins: Array<{name: string; ruleId?: string; setting: unknown}>
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
    const loaded = await new Promise<{filePath?: string; plugins: Array<[unknown, ...unknown[]]>}>((resolve, reject) => {
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
        return {name, ruleId: ruleIdOf(name), setting}
      })
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

/**
 * `--print-config <file>`: the configuration that applies to a file, as
 * ESLint's `--print-config` shows it: where it comes from, the plugins in
 * order, and every planlint rule it turns on, with severity and options.
 * Rules it does not name (or turns off) do not run.
 */
export async function printConfig(file: string, options: ConfigOptions): Promise<string> {
  const filePath = path.resolve(options.cwd, file)
  const config = await configLoader(options)(filePath)
  const report = {file: path.relative(options.cwd, filePath), config: config.source, plugins: config.plugins.map((plugin) => plugin.name), rules: enabledRules(config)}
  return JSON.stringify(report, null, 2) + '\n'
}
