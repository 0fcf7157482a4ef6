import path from 'node:path'
import {remark} from 'remark'
import type {Processor} from 'unified'
import {Configuration, engine} from 'unified-engine'
import {VFile} from 'vfile'
import {isIgnoredNotice, unreportedRun} from '../lint.js'
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
  let ignored = new Map<string, Promise<boolean>>()

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

  /**
   * Lints `text` as the content of `filePath`; the messages are on the
   * returned file. After parsing (half the work) it asks `stillWanted`, if
   * given, and gives `undefined` without running the rules when the text is stale.
   */
  function lint(filePath: string, text: string): Promise<VFile>
  function lint(filePath: string, text: string, stillWanted: () => Promise<boolean>): Promise<VFile | undefined>
  async function lint(filePath: string, text: string, stillWanted?: () => Promise<boolean>): Promise<VFile | undefined> {
    const loaded = await load(filePath)
    if ('problem' in loaded) throw new ConfigurationError(loaded.problem)
    const file = new VFile({path: filePath, cwd: path.dirname(filePath), value: text})
    const tree = loaded.processor.parse(file)
    if (stillWanted && !(await stillWanted())) return undefined
    await loaded.processor.run(tree, file)
    return file
  }

  return {
    lint,
    /** Whether the `.remarkignore` nearest above `filePath` ignores it (asked once per file until `reload`). */
    isIgnored(filePath: string): Promise<boolean> {
      let answer = ignored.get(filePath)
      if (!answer) ignored.set(filePath, (answer = ignoredByRemark(filePath, cwd)))
      return answer
    },
    reload() {
      configuration = newConfiguration(cwd)
      processors = new Map()
      ignored = new Map()
    }
  }
}

/**
 * unified-engine's own answer, as remark and the planlint CLI get it: the file
 * named (an empty stand-in, so nothing is read) with `.remarkignore` detected
 * and no plugins; an ignored file comes back with the "it's ignored" notice.
 */
function ignoredByRemark(filePath: string, cwd: string): Promise<boolean> {
  return new Promise((resolve) => {
    engine(
      {
        processor: remark(),
        files: [new VFile({path: filePath, value: ''})],
        cwd,
        ignoreName: '.remarkignore',
        detectConfig: false,
        ...unreportedRun
      },
      (error, _code, context) => resolve(!error && (context?.files ?? []).some((file) => file.messages.some(isIgnoredNotice)))
    )
  })
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
