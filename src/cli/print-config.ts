import path from 'node:path'
import {configLoader, enabledRules, type ConfigOptions} from './configuration.js'

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
