import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {
  CodeActionKind,
  createConnection,
  DiagnosticSeverity,
  DidChangeWatchedFilesNotification,
  ProposedFeatures,
  TextDocuments,
  TextDocumentSyncKind,
  type CodeAction,
  type Connection,
  type Diagnostic,
  type Range
} from 'vscode-languageserver/node.js'
import {TextDocument} from 'vscode-languageserver-textdocument'
import type {VFile} from 'vfile'
import type {VFileMessage} from 'vfile-message'
import {applyEdits, describeEdit} from '../edits.js'
import {maxFixPasses} from '../fix.js'
import {planlintDataOf} from '../lint.js'
import type {Edit} from '../rule.js'
import {LintSession} from '../session.js'
import {ConfigurationError, documentLinter} from './lint-document.js'
import {navigationCapabilities, registerNavigation} from './navigation.js'

/** The kind of the "fix all planlint problems" source action (`source.fixAll` is what editors run on save). */
const fixAllKind = `${CodeActionKind.SourceFixAll}.planlint`

/** How long a planning tree stays unchanged before its other open documents are re-checked: typing re-checks them once, not per keystroke. */
const recheckDelayMs = 200

/** How many turns of the event loop without a change of a document end a burst of changes to it (see `settled`). */
const settledTurns = 3

/**
 * Client settings (section `planlint` of `workspace/configuration`, or the
 * `initializationOptions`). All optional: `null` (eglot, Helix and Neovim's
 * answer for "no setting"), a missing section and unknown keys are fine.
 */
interface Settings {
  /** Lint every Markdown document, not only those in a planning tree (a `.planning` folder above them). */
  allMarkdown: boolean
}

function settingsFrom(value: unknown, fallback: Settings): Settings {
  if (!value || typeof value !== 'object') return fallback
  const allMarkdown = (value as {allMarkdown?: unknown}).allMarkdown
  return {allMarkdown: typeof allMarkdown === 'boolean' ? allMarkdown : fallback.allMarkdown}
}

/** A document as last linted: the text the messages' offsets point into, and the messages. */
interface Linted {
  document: TextDocument
  messages: VFileMessage[]
}

/** Per open document: whether a lint of it is running, and whether it is due for one (a change, a re-check) not yet under way. */
interface LintState {
  running: boolean
  due: boolean
}

const filePathOf = (uri: unknown) => {
  if (typeof uri !== 'string' || !uri.startsWith('file:')) return undefined
  try {
    return fileURLToPath(uri)
  } catch {
    return undefined
  }
}

const inPlanningTree = (filePath: string) => path.dirname(filePath).split(path.sep).includes('.planning')

/** Files whose change changes what every document gets: configurations and ignore files. */
const isConfigurationFile = (filePath: string) => {
  const name = path.basename(filePath)
  return name.startsWith('.remarkrc') || name === 'package.json' || name === '.remarkignore'
}

function rangeOf(message: VFileMessage): Range {
  const place = message.place
  const start = place && 'start' in place ? place.start : place
  const end = place && 'end' in place ? place.end : start
  const position = (point: {line: number; column: number} | undefined) => ({line: Math.max((point?.line ?? 1) - 1, 0), character: Math.max((point?.column ?? 1) - 1, 0)})
  return {start: position(start), end: position(end)}
}

function diagnosticOf(message: VFileMessage): Diagnostic {
  return {
    range: rangeOf(message),
    severity: message.fatal ? DiagnosticSeverity.Error : DiagnosticSeverity.Warning,
    message: message.reason,
    source: 'planlint',
    ...(message.ruleId ? {code: message.ruleId} : {}),
    ...(message.url ? {codeDescription: {href: message.url}} : {})
  }
}

const before = (a: {line: number; character: number}, b: {line: number; character: number}) => a.line < b.line || (a.line === b.line && a.character < b.character)
const overlaps = (a: Range, b: Range) => !before(a.end, b.start) && !before(b.end, a.start)

/**
 * planlint's language server on `vscode-languageserver`, over the transport
 * named on the command line (`--stdio`, `--node-ipc`, `--socket=<port>`).
 * One lint session per connection: open documents' unsaved texts count for
 * the cross-file rules. It has no formatting capability (planlint is a
 * linter: no request but an explicit code action changes a text), lints only
 * documents in planning trees unless the client's `planlint.allMarkdown`
 * setting widens it or a `.remarkignore` ignores them, lints only the newest
 * version of a document (changes that arrive while a lint runs are linted
 * once, together, after it), and logs what goes wrong instead of exiting. What it knows of
 * the planning trees (their plans' graph facts) is read once and kept: typing
 * in a plan's body changes no graph fact, so only an edit of its frontmatter
 * re-checks the tree's other open plans (once the typing pauses), and only a
 * file changed on disk (saved, or reported by the client's file watcher) is
 * read again.
 */
export function startLanguageServer(connection: Connection = createConnection(ProposedFeatures.all)): Connection {
  const documents = new TextDocuments(TextDocument)
  const session = new LintSession()
  registerNavigation(connection, documents, session)
  let linter = documentLinter(session, process.cwd())
  let settings: Settings = {allMarkdown: false}
  let askForSettings = false
  /** Whether the client can watch files for the server (what changes on disk: other plans, configurations, ignore files). */
  let watchesFiles = false
  /** Whether the client resolves a code action's edit when it is picked (else the fix-all edit comes with the action). */
  let resolvesEdits = false
  const linted = new Map<string, Linted>()
  const states = new Map<string, LintState>()
  const recheckTimers = new Map<string, NodeJS.Timeout>()

  const log = (what: string, error: unknown) => connection.console.error(`planlint: ${what}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)

  const wanted = (filePath: string) => settings.allMarkdown || inPlanningTree(filePath)

  /** Lints a document's newest text and publishes its diagnostics, with the version they are for. */
  async function lintOnce(uri: string, filePath: string): Promise<void> {
    const document = documents.get(uri)
    if (!document) return
    const snapshot = TextDocument.create(uri, document.languageId, document.version, document.getText())
    // The session learns the text here, once per lint rather than once per keystroke of a burst.
    if (session.openDocument(filePath, snapshot.getText())) scheduleRecheck(filePath, filePath)
    if (linter.isIgnored(filePath)) {
      // Ignored as remark and the CLI ignore it: no diagnostics (and none left over from before the ignore file said so).
      linted.delete(uri)
      await connection.sendDiagnostics({uri, version: snapshot.version, diagnostics: []})
      return
    }
    let file: VFile
    try {
      file = await linter.lint(filePath, snapshot.getText())
    } catch (error) {
      if (!(error instanceof ConfigurationError)) throw error
      linted.delete(uri)
      const start = {line: 0, character: 0}
      await connection.sendDiagnostics({
        uri,
        version: snapshot.version,
        diagnostics: [{range: {start, end: start}, severity: DiagnosticSeverity.Error, source: 'planlint', message: `planlint cannot load the configuration: ${error.message}`}]
      })
      return
    }
    // Published for its version even when a newer one came meanwhile (it is linted next): were a lint slower than the
    // typing, waiting for one that is still current would publish nothing until the typing stops.
    if (!documents.get(uri)) return
    const messages = file.messages.filter((message) => message.fatal !== null && message.fatal !== undefined)
    linted.set(uri, {document: snapshot, messages})
    await connection.sendDiagnostics({uri, version: snapshot.version, diagnostics: messages.map(diagnosticOf)})
  }

  /** Lints a document now, or, while a lint of it runs, once more right after with the text as it is then. */
  function schedule(uri: string): void {
    const filePath = filePathOf(uri)
    if (!filePath || !wanted(filePath)) return
    let state = states.get(uri)
    if (!state) states.set(uri, (state = {running: false, due: false}))
    state.due = true
    if (state.running) return
    const current = state
    current.running = true
    void (async () => {
      try {
        while (current.due && documents.get(uri)) {
          await settled(uri)
          // What arrived while settling is in this lint: it needs no other.
          current.due = false
          await lintOnce(uri, filePath)
        }
      } catch (error) {
        log(`could not lint ${filePath}`, error)
      } finally {
        current.running = false
      }
    })()
  }

  /**
   * Waits until the changes already received for a document are applied: the
   * JSON-RPC connection handles one message per turn of the event loop, and a
   * turn also reads what has arrived meanwhile. So a burst of changes (typing
   * while a lint ran) is linted once, at its newest text, not one by one. A
   * few turns must pass without a change: the client's other messages (the
   * code-action and hover requests of a moving cursor) come between them.
   */
  async function settled(uri: string): Promise<void> {
    let version = documents.get(uri)?.version
    for (let unchanged = 0; unchanged < settledTurns; ) {
      await new Promise((resolve) => setImmediate(resolve))
      const now = documents.get(uri)?.version
      unchanged = now === version ? unchanged + 1 : 0
      version = now
    }
  }

  /** Re-checks the open documents of a planning tree (but the one whose change caused it) once changes in the tree pause. */
  function scheduleRecheck(filePath: string, except?: string): void {
    const root = session.planningRootOf(filePath)
    clearTimeout(recheckTimers.get(root))
    const timer = setTimeout(() => {
      recheckTimers.delete(root)
      for (const other of documents.all()) {
        const otherPath = filePathOf(other.uri)
        if (otherPath && otherPath !== except && session.planningRootOf(otherPath) === root) schedule(other.uri)
      }
    }, recheckDelayMs)
    recheckTimers.set(root, timer)
  }

  /** Files changed on disk: they are read again, and the documents they bear on re-checked. */
  function changedOnDisk(filePaths: string[]): void {
    if (filePaths.some(isConfigurationFile)) {
      linter.reload()
      for (const document of documents.all()) schedule(document.uri)
    }
    for (const filePath of filePaths) {
      session.invalidate(filePath)
      scheduleRecheck(filePath)
    }
  }

  async function refreshSettings(): Promise<void> {
    if (!askForSettings) return
    try {
      const [section] = await connection.workspace.getConfiguration([{section: 'planlint'}])
      settings = settingsFrom(section, {allMarkdown: false})
    } catch (error) {
      log('could not read the client settings', error)
    }
  }

  connection.onInitialize((params) => {
    const folder = filePathOf(params.workspaceFolders?.[0]?.uri) ?? filePathOf(params.rootUri)
    if (folder) linter = documentLinter(session, folder)
    settings = settingsFrom(params.initializationOptions, settings)
    askForSettings = params.capabilities?.workspace?.configuration === true
    watchesFiles = params.capabilities?.workspace?.didChangeWatchedFiles?.dynamicRegistration === true
    resolvesEdits = params.capabilities?.textDocument?.codeAction?.resolveSupport?.properties?.includes('edit') === true
    return {
      capabilities: {
        textDocumentSync: {openClose: true, change: TextDocumentSyncKind.Incremental, save: {includeText: false}},
        codeActionProvider: {codeActionKinds: [CodeActionKind.QuickFix, fixAllKind], resolveProvider: true},
        ...navigationCapabilities
      },
      serverInfo: {name: 'planlint-language-server'}
    }
  })

  connection.onInitialized(async () => {
    if (watchesFiles) {
      try {
        await connection.client.register(DidChangeWatchedFilesNotification.type, {
          watchers: ['**/*.md', '**/.remarkrc*', '**/.remarkignore', '**/package.json', '**/.planning/config.json'].map((globPattern) => ({globPattern}))
        })
      } catch (error) {
        log('could not watch files', error)
      }
    }
    await refreshSettings()
    for (const document of documents.all()) schedule(document.uri)
  })

  connection.onDidChangeConfiguration(async (params) => {
    if (askForSettings) await refreshSettings()
    else settings = settingsFrom((params?.settings as {planlint?: unknown} | null)?.planlint, settings)
    for (const document of documents.all()) schedule(document.uri)
  })

  documents.onDidChangeContent(({document}) => schedule(document.uri))
  documents.onDidClose(({document}) => {
    const filePath = filePathOf(document.uri)
    linted.delete(document.uri)
    states.delete(document.uri)
    if (!filePath) return
    session.closeDocument(filePath)
    void connection.sendDiagnostics({uri: document.uri, diagnostics: []})
    scheduleRecheck(filePath)
  })
  documents.onDidSave(({document}) => {
    const filePath = filePathOf(document.uri)
    if (!filePath) return
    // A saved configuration changes what every document gets; a saved plan's buffer counted already, but its file is read again.
    if (isConfigurationFile(filePath)) changedOnDisk([filePath])
    else session.invalidate(filePath)
  })
  connection.onDidChangeWatchedFiles(({changes}) => changedOnDisk(changes.flatMap(({uri}) => filePathOf(uri) ?? [])))

  connection.onCodeAction(async (params) => {
    const entry = linted.get(params.textDocument.uri)
    if (!entry || entry.document.version !== documents.get(params.textDocument.uri)?.version) return []
    const {document, messages} = entry
    const uri = document.uri
    const only = params.context.only
    const wants = (kind: string) => !only || only.some((prefix) => kind === prefix || kind.startsWith(prefix + '.'))
    const textEdit = (edit: Edit) => ({range: {start: document.positionAt(edit.range[0]), end: document.positionAt(edit.range[1])}, newText: edit.text})
    const actions: CodeAction[] = []
    if (wants(CodeActionKind.QuickFix)) {
      for (const message of messages) {
        const range = rangeOf(message)
        if (!overlaps(range, params.range)) continue
        const {fix, suggestions = []} = planlintDataOf(message)
        const diagnostics = [diagnosticOf(message)]
        // The fix first, as the preferred action; then the suggestions, closest first.
        for (const [index, edit] of [...(fix ? [fix] : []), ...suggestions].entries()) {
          actions.push({
            title: describeEdit(document.getText(), edit),
            kind: CodeActionKind.QuickFix,
            diagnostics,
            ...(fix && index === 0 ? {isPreferred: true} : {}),
            edit: {changes: {[uri]: [textEdit(edit)]}}
          })
        }
      }
    }
    if (wants(fixAllKind) && messages.some((message) => planlintDataOf(message).fix)) {
      const fixAll: CodeAction = {title: 'Fix all planlint problems', kind: fixAllKind, data: {uri, version: document.version}}
      actions.push(resolvesEdits ? fixAll : await withFixAllEdit(fixAll))
    }
    return actions
  })

  // The fix-all edit is worked out when the client picks the action (when it can resolve): its passes lint the text again.
  connection.onCodeActionResolve(withFixAllEdit)

  async function withFixAllEdit(action: CodeAction): Promise<CodeAction> {
    const data = action.data as {uri?: unknown; version?: unknown} | undefined
    const document = typeof data?.uri === 'string' ? documents.get(data.uri) : undefined
    const filePath = filePathOf(data?.uri)
    if (!document || !filePath || document.version !== data?.version) return action
    let text = document.getText()
    try {
      for (let pass = 0; pass < maxFixPasses; pass++) {
        const file = await linter.lint(filePath, text)
        const fixes = file.messages.flatMap((message) => planlintDataOf(message).fix ?? [])
        const result = applyEdits(text, fixes)
        if (result.applied.length === 0) break
        text = result.text
      }
    } catch (error) {
      log(`could not fix ${filePath}`, error)
      return action
    }
    if (text === document.getText()) return action
    const end = document.positionAt(document.getText().length)
    return {...action, edit: {changes: {[document.uri]: [{range: {start: {line: 0, character: 0}, end}, newText: text}]}}}
  }

  // A client's quirk (a malformed notification, a uri that is not a string) is logged; the server goes on.
  process.on('uncaughtException', (error) => log('unexpected error', error))
  process.on('unhandledRejection', (error) => log('unexpected error', error))

  documents.listen(connection)
  connection.listen()
  return connection
}
