import {createRequire} from 'node:module'
import {fileURLToPath} from 'node:url'
import {remark} from 'remark'
import type {Plugin} from 'unified'
import {Configuration} from 'unified-engine'
import {createUnifiedLanguageServer} from 'unified-language-server'
import type {VFile} from 'vfile'
import {closeOpenDocument, planningRootOf, setOpenDocument} from '../graph/graph.js'
import recommended from '../presets/recommended.js'

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

/**
 * Cross-file rules in the editor. unified-language-server checks only the
 * document that changed and keeps its document manager to itself, so this
 * wraps the manager's `listen` while the server is created: every open
 * document's text is registered in the plan graph (an unsaved buffer wins
 * over its file), and a change to (or the closing of) one document re-checks
 * the other open documents of the same planning tree, by firing their
 * content-change event, on which unified-language-server checks a document.
 */
function trackOpenDocuments(documents: TextDocumentsLike): void {
  const rechecking = new Set<string>()
  const recheckOthers = (changed: string) => {
    const root = planningRootOf(changed)
    for (const other of documents.all()) {
      const otherPath = filePathOf(other.uri)
      if (!otherPath || otherPath === changed || rechecking.has(other.uri) || planningRootOf(otherPath) !== root) continue
      rechecking.add(other.uri)
      try {
        documents._onDidChangeContent.fire({document: other})
      } finally {
        rechecking.delete(other.uri)
      }
    }
  }
  documents.onDidChangeContent(({document}) => {
    const filePath = filePathOf(document.uri)
    if (!filePath) return
    setOpenDocument(filePath, document.getText())
    if (rechecking.size === 0) recheckOthers(filePath)
  })
  documents.onDidClose(({document}) => {
    const filePath = filePathOf(document.uri)
    if (!filePath) return
    closeOpenDocument(filePath)
    recheckOthers(filePath)
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
