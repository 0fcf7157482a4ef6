import path from 'node:path'
import {remark} from 'remark'
import type {Processor} from 'unified'
import {Configuration} from 'unified-engine'
import {VFile} from 'vfile'
import {RemarkIgnore} from '../cli/walk.js'
import {presets} from '../presets/index.js'
import {sessionKey} from '../remark.js'
import type {LintSession} from '../session.js'

/** What the project's configuration says for a file, or why it could not be loaded. */
type Loaded = {processor: Processor} | {problem: string}

/** Raised when a file's configuration cannot load: its message is the real cause, in one line. */
export class ConfigurationError extends Error {}

/**
 * Lints documents as they are in the editor, configured as the CLI and remark
 * are: the `.remarkrc*` or `package.json#remarkConfig` above each file, the
 * recommended preset without one; `isIgnored` asks the `.remarkignore` above
 * a file, as they do. One processor per configuration file, frozen once, in
 * the session given: the unsaved texts of open documents count for cross-file
 * rules. `reload` forgets the configurations and ignore files read (one changed).
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
          const processor = remark().data(sessionKey, session).data('settings', result.settings).use(result.plugins as never).freeze()
          processors.set(key, (loaded = {processor: processor as unknown as Processor}))
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

function newConfiguration(cwd: string): Configuration {
  return new Configuration({
    cwd,
    rcName: '.remarkrc',
    packageField: 'remarkConfig',
    detectConfig: true,
    defaultConfig: presets.recommended
  })
}
