import path from 'node:path'
import {remark} from 'remark'
import type {Processor} from 'unified'
import {Configuration} from 'unified-engine'
import {VFile} from 'vfile'
import {lintRulesOf, onlyPlanlintPlugins, pluginEntry, type FileConfig} from '../cli/configuration.js'
import {RemarkIgnore} from '../cli/walk.js'
import {addMessages} from '../messages.js'
import {presets} from '../presets/index.js'
import {sessionKey} from '../remark.js'
import type {FileLintOptions, LintSession} from '../session.js'

/**
 * What the project's configuration says for a file: what `LintSession.lint`
 * runs when it holds only planlint's plugins, else a remark processor that
 * runs them all; or why it could not be loaded.
 */
type Loaded = {run: FileLintOptions} | {processor: Processor} | {problem: string}

/** Raised when a file's configuration cannot load: its message is the real cause, in one line. */
export class ConfigurationError extends Error {}

/**
 * Lints documents as they are in the editor, configured as the CLI and remark
 * are: the `.remarkrc*` or `package.json#remarkConfig` above each file, the
 * recommended preset without one; `isIgnored` asks the `.remarkignore` above
 * a file, as they do. One processor per configuration file, frozen once, in
 * the session given: the unsaved texts of open documents count for cross-file
 * rules. A configuration of planlint's plugins only is linted as the CLI lints
 * it, `session.lint` on the text with no remark parse (most of a change's
 * latency was that parse); one with another plugin runs through remark, so
 * that the plugin's messages show too. `reload` forgets the configurations and
 * ignore files read (one changed).
 */
export function documentLinter(session: LintSession, cwd: string) {
  let configuration = newConfiguration(cwd)
  let processors = new Map<string, Loaded>()
  let ignores = new RemarkIgnore()

  const load = (filePath: string) =>
    new Promise<Loaded>((resolve) => {
      configuration.load(filePath, (error, result) => {
        if (error || !result) {
          const cause = error?.cause instanceof Error ? error.cause : error
          resolve({problem: (cause?.message ?? 'no configuration').split('\n')[0]})
          return
        }
        const key = result.filePath ?? '(recommended preset)'
        let loaded = processors.get(key)
        if (!loaded) {
          const config: FileConfig = {source: key, plugins: result.plugins.map(([plugin, setting]) => pluginEntry(plugin, setting)), settings: result.settings?.planlint}
          loaded = (onlyPlanlintPlugins(config) && planlintRun(config)) || {
            processor: remark().data(sessionKey, session).data('settings', result.settings).use(result.plugins as never).freeze() as unknown as Processor
          }
          processors.set(key, loaded)
        }
        resolve(loaded)
      })
    })

  return {
    /** Lints `text` as the content of `filePath`; the messages are on the returned file. */
    async lint(filePath: string, text: string): Promise<VFile> {
      const loaded = await load(filePath)
      if ('problem' in loaded) throw new ConfigurationError(loaded.problem)
      const file = new VFile({path: filePath, cwd: path.dirname(filePath), value: text})
      if ('run' in loaded) {
        addMessages(file, text, session.lint(filePath, text, loaded.run))
        return file
      }
      const tree = loaded.processor.parse(file)
      await loaded.processor.run(tree, file)
      return file
    },
    /** Whether the `.remarkignore` nearest above `filePath` ignores it, as the CLI reads it (each folder once until `reload`). */
    isIgnored(filePath: string): boolean {
      return ignores.ignores(filePath)
    },
    reload() {
      configuration = newConfiguration(cwd)
      processors = new Map()
      ignores = new RemarkIgnore()
    }
  }
}

/**
 * What `session.lint` runs under a configuration of planlint's plugins only;
 * `undefined` when a rule's options do not fit its schema (a `UsageError`),
 * which the remark plugins report on each file, naming the rule, while the
 * other rules run. (Called in unified-engine's callback: it must not throw.)
 */
function planlintRun(config: FileConfig): {run: FileLintOptions} | undefined {
  try {
    return {run: {...lintRulesOf(config), settings: config.settings}}
  } catch {
    return undefined
  }
}

function newConfiguration(cwd: string): Configuration {
  return new Configuration({
    cwd,
    rcName: '.remarkrc',
    packageField: 'remarkConfig',
    detectConfig: true,
    defaultConfig: presets.recommended
  })
}
