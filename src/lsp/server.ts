import {createRequire} from 'node:module'
import {fileURLToPath} from 'node:url'
import {remark} from 'remark'
import type {Plugin} from 'unified'
import {Configuration} from 'unified-engine'
import {createUnifiedLanguageServer} from 'unified-language-server'
import type {VFile} from 'vfile'
import recommended from '../presets/recommended.js'
import {processSession} from '../session.js'

/** Where remark users keep their configuration; the language server reads the same files. */
const remarkConfig = {rcName: '.remarkrc', packageField: 'remarkConfig', ignoreName: '.remarkignore'}

/** Whether a remark configuration file applies to a file (a broken one counts: the engine reports it). */
function hasRemarkConfig(file: VFile): Promise<boolean> {
  const configuration = new Configuration({cwd: file.cwd, detectConfig: true, ...remarkConfig})
  return new Promise((resolve) => {
    configuration.load(file.path, (error, result) => {
      resolve(Boolean(error) || Boolean(result?.filePath))
    })
  })
}

const recommendedProcessor = remark().use(recommended).freeze()

/**
 * Runs the `recommended` preset on files that no `.remarkrc*` or
 * `package.json#remarkConfig` configures. unified-language-server passes its
 * `plugins` to every file and has no default configuration, so this plugin
 * decides per file. It parses again with the preset's frontmatter support:
 * the workspace's plain remark reads a frontmatter as a heading.
 */
const recommendedWhenUnconfigured: Plugin<[]> = function () {
  return async (_tree: unknown, file: VFile) => {
    if (await hasRemarkConfig(file)) return
    await recommendedProcessor.run(recommendedProcessor.parse(file), file)
  }
}

interface DocumentLike {
  uri: string
  getText(): string
}

interface TextDocumentsLike {
  listen(connection: unknown): unknown
  all(): DocumentLike[]
  onDidChangeContent(listener: (event: {document: DocumentLike}) => void): unknown
  onDidClose(listener: (event: {document: DocumentLike}) => void): unknown
  _onDidChangeContent: {fire(event: {document: DocumentLike}): void}
}

const filePathOf = (uri: string) => (uri.startsWith('file:') ? fileURLToPath(uri) : undefined)

/** How long a planning tree stays unchanged before its other open documents are re-checked: typing re-checks them once, not per keystroke. */
const recheckDelayMs = 200

/**
 * Cross-file rules in the editor. unified-language-server checks only the
 * document that changed and keeps its document manager to itself, so this
 * wraps the manager's `listen` while the server is created: every open
 * document's text is registered in the plan graph (an unsaved buffer wins
 * over its file), and once changes to (or the closing of) documents of a
 * planning tree pause, the tree's other open documents are re-checked, by
 * firing their content-change event, on which unified-language-server checks
 * a document.
 */
function trackOpenDocuments(documents: TextDocumentsLike): void {
  // The plugins under unified-language-server have no run of their own: they lint in the process session.
  const session = processSession()
  /** Per planning tree, the timer that will re-check its open documents but the last one changed (checked with every change). */
  const timers = new Map<string, NodeJS.Timeout>()
  let rechecking = false
  const recheckOthers = (root: string, changed: string) => {
    timers.delete(root)
    rechecking = true
    try {
      for (const other of documents.all()) {
        const otherPath = filePathOf(other.uri)
        if (otherPath && otherPath !== changed && session.planningRootOf(otherPath) === root) documents._onDidChangeContent.fire({document: other})
      }
    } finally {
      rechecking = false
    }
  }
  const scheduleRecheck = (filePath: string) => {
    const root = session.planningRootOf(filePath)
    clearTimeout(timers.get(root))
    timers.set(root, setTimeout(() => recheckOthers(root, filePath), recheckDelayMs))
  }
  documents.onDidChangeContent(({document}) => {
    const filePath = filePathOf(document.uri)
    if (!filePath) return
    session.openDocument(filePath, document.getText())
    if (!rechecking) scheduleRecheck(filePath)
  })
  documents.onDidClose(({document}) => {
    const filePath = filePathOf(document.uri)
    if (!filePath) return
    session.closeDocument(filePath)
    scheduleRecheck(filePath)
  })
}

/**
 * Starts the planlint language server on the transport named on the command
 * line (`--stdio`, `--node-ipc`, `--socket=<port>`): unified-language-server
 * with remark, the project's remark configuration when it has one and the
 * `recommended` preset when it has none.
 */
export function startLanguageServer(): void {
  // The document manager class unified-language-server itself loads.
  const require = createRequire(import.meta.resolve('unified-language-server'))
  const {TextDocuments} = require('vscode-languageserver/node.js') as {TextDocuments: {prototype: TextDocumentsLike}}
  const listen = TextDocuments.prototype.listen
  TextDocuments.prototype.listen = function (this: TextDocumentsLike, connection: unknown) {
    const disposable = listen.call(this, connection)
    trackOpenDocuments(this)
    return disposable
  }
  try {
    createUnifiedLanguageServer({
      processorName: 'remark',
      processorSpecifier: 'remark',
      defaultProcessor: remark(),
      configurationSection: 'planlint',
      plugins: [recommendedWhenUnconfigured],
      ...remarkConfig
    })
  } finally {
    TextDocuments.prototype.listen = listen
  }
}
