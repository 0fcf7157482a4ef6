import {spawn, type ChildProcessWithoutNullStreams} from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import {pathToFileURL} from 'node:url'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {
  CodeActionRequest,
  createProtocolConnection,
  DidChangeTextDocumentNotification,
  DidChangeWatchedFilesNotification,
  DidCloseTextDocumentNotification,
  FileChangeType,
  RegistrationRequest,
  DidOpenTextDocumentNotification,
  DidChangeConfigurationNotification,
  DocumentFormattingRequest,
  CodeActionResolveRequest,
  ConfigurationRequest,
  ErrorCodes,
  type CodeAction,
  type ServerCapabilities,
  InitializedNotification,
  InitializeRequest,
  PublishDiagnosticsNotification,
  StreamMessageReader,
  StreamMessageWriter,
  type Diagnostic,
  type ProtocolConnection,
  type Registration
} from 'vscode-languageserver-protocol/node'
import {LintSession} from '../src/session.js'
import {remark} from 'remark'
import remarkFrontmatter from 'remark-frontmatter'
import type {VFileMessage} from 'vfile-message'
import {installPlanlint, languageServerBin, planlint, repository} from './support/cli.js'
import {brokenPlan, planWith, readTree, removeTree, writeTree} from './support/tree.js'

const phase = '.planning/phases/01-storage'

/** A client talking to the server over stdio, keeping the latest diagnostics per document. */
class Client {
  readonly diagnostics = new Map<string, Diagnostic[]>()
  /** Every publication, in the order they arrived, with the version of the text it is for. */
  readonly published: Array<{uri: string; version: number | undefined; count: number}> = []
  /** What the server asked the client to watch (`client/registerCapability`). */
  readonly registrations: Registration[] = []
  capabilities: ServerCapabilities = {}
  /** How often the server asked for the client's settings; the answer is `[null]`, as eglot, Helix and Neovim give when nothing is set. */
  configurationRequests = 0
  private waiters: Array<() => void> = []
  private versions = new Map<string, number>()

  constructor(readonly server: ChildProcessWithoutNullStreams, readonly connection: ProtocolConnection) {
    connection.onNotification(PublishDiagnosticsNotification.type, ({uri, version, diagnostics}) => {
      this.published.push({uri, version, count: diagnostics.length})
      // In source order (the server lists them rule by rule).
      this.diagnostics.set(uri, [...diagnostics].sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character))
      for (const wake of this.waiters.splice(0)) wake()
    })
    connection.onRequest(RegistrationRequest.type, ({registrations}) => {
      this.registrations.push(...registrations)
    })
    connection.onRequest(ConfigurationRequest.type, (params) => {
      this.configurationRequests++
      return params.items.map(() => null)
    })
    connection.listen()
  }

  /** Resolves with a document's diagnostics once `test` accepts them. */
  async until(uri: string, test: (diagnostics: Diagnostic[]) => boolean, timeoutMs = 30_000): Promise<Diagnostic[]> {
    const deadline = Date.now() + timeoutMs
    while (!(this.diagnostics.has(uri) && test(this.diagnostics.get(uri)!))) {
      if (Date.now() > deadline) throw new Error(`no matching diagnostics for ${uri}: ${JSON.stringify(this.diagnostics.get(uri))}`)
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve)
        setTimeout(resolve, 500)
      })
    }
    return this.diagnostics.get(uri)!
  }

  open(uri: string, text: string) {
    this.versions.set(uri, 1)
    return this.connection.sendNotification(DidOpenTextDocumentNotification.type, {textDocument: {uri, languageId: 'markdown', version: 1, text}})
  }

  change(uri: string, text: string) {
    const version = (this.versions.get(uri) ?? 1) + 1
    this.versions.set(uri, version)
    return this.connection.sendNotification(DidChangeTextDocumentNotification.type, {textDocument: {uri, version}, contentChanges: [{text}]})
  }

  /** Types `text` at `line`:`character`, as an editor sends a keystroke (an incremental change); returns the new version. */
  type(uri: string, line: number, character: number, text: string): number {
    const version = (this.versions.get(uri) ?? 1) + 1
    this.versions.set(uri, version)
    const at = {line, character}
    void this.connection.sendNotification(DidChangeTextDocumentNotification.type, {textDocument: {uri, version}, contentChanges: [{range: {start: at, end: at}, text}]})
    return version
  }
}

async function startClient(root: string): Promise<Client> {
  const server = spawn(process.execPath, [languageServerBin, '--stdio'], {cwd: root})
  const connection = createProtocolConnection(new StreamMessageReader(server.stdout), new StreamMessageWriter(server.stdin))
  const client = new Client(server, connection)
  const rootUri = pathToFileURL(root).href
  const result = await connection.sendRequest(InitializeRequest.type, {
    processId: process.pid,
    rootUri,
    workspaceFolders: [{uri: rootUri, name: 'fixture'}],
    capabilities: {
      workspace: {configuration: true, didChangeWatchedFiles: {dynamicRegistration: true}},
      textDocument: {codeAction: {resolveSupport: {properties: ['edit']}}}
    }
  })
  expect(result.capabilities.codeActionProvider).toBeTruthy()
  client.capabilities = result.capabilities
  await connection.sendNotification(InitializedNotification.type, {})
  return client
}

function stop(client: Client) {
  client.connection.dispose()
  client.server.kill()
}

describe('planlint-language-server over stdio', {timeout: 90_000}, () => {
  let root: string
  let client: Client
  const uri = (file: string) => pathToFileURL(path.join(root, phase, file)).href

  beforeAll(async () => {
    root = writeTree([
      {path: 'package.json', text: '{"name": "fixture", "private": true}\n'},
      {path: `${phase}/01-02-PLAN.md`, text: planWith('02', ['01-03'])},
      {path: `${phase}/01-03-PLAN.md`, text: planWith('03', [])}
    ])
    client = await startClient(root)
  })
  afterAll(() => {
    stop(client)
    removeTree(root)
  })

  it('publishes diagnostics with rule ids, severities, ranges and docs links', async () => {
    await client.open(uri('01-01-PLAN.md'), brokenPlan)
    const diagnostics = await client.until(uri('01-01-PLAN.md'), (list) => list.length > 0)
    expect(diagnostics.map(({code, severity, range, source, codeDescription}) => ({code, severity, range, source, href: codeDescription?.href}))).toEqual([
      {
        code: 'autonomous-flag',
        severity: 1,
        source: 'planlint',
        range: {start: {line: 7, character: 12}, end: {line: 7, character: 16}},
        href: 'https://github.com/planlint/planlint/blob/main/docs/rules/autonomous-flag.md'
      },
      {
        code: 'auto-select-option',
        severity: 1,
        source: 'planlint',
        range: {start: {line: 15, character: 62}, end: {line: 15, character: 75}},
        href: 'https://github.com/planlint/planlint/blob/main/docs/rules/auto-select-option.md'
      }
    ])
  })

  it('offers the fix as a quick fix', async () => {
    const diagnostics = client.diagnostics.get(uri('01-01-PLAN.md'))!
    const actions = await client.connection.sendRequest(CodeActionRequest.type, {
      textDocument: {uri: uri('01-01-PLAN.md')},
      range: diagnostics[1].range,
      context: {diagnostics: [diagnostics[1]]}
    })
    expect(actions).toEqual([
      {
        title: 'Replace `s3-compatable` with `s3-compatible`',
        kind: 'quickfix',
        diagnostics: [expect.objectContaining({code: 'auto-select-option'})],
        isPreferred: true,
        edit: {changes: {[uri('01-01-PLAN.md')]: [{range: diagnostics[1].range, newText: 's3-compatible'}]}}
      },
      expect.objectContaining({title: 'Fix all planlint problems', kind: 'source.fixAll.planlint'})
    ])
  })

  it('"Fix all planlint problems" is one edit that applies every fix, worked out when the client resolves it', async () => {
    const [fixAll] = await client.connection.sendRequest(CodeActionRequest.type, {
      textDocument: {uri: uri('01-01-PLAN.md')},
      range: {start: {line: 0, character: 0}, end: {line: 0, character: 0}},
      context: {diagnostics: [], only: ['source.fixAll']}
    })
    expect(fixAll).toMatchObject({title: 'Fix all planlint problems', kind: 'source.fixAll.planlint'})
    expect((fixAll as CodeAction).edit).toBeUndefined()
    const resolved = await client.connection.sendRequest(CodeActionResolveRequest.type, fixAll as CodeAction)
    const [edit] = resolved.edit!.changes![uri('01-01-PLAN.md')]
    expect(edit.newText).toBe(brokenPlan.replace('s3-compatable', 's3-compatible').replace('autonomous: true', 'autonomous: false'))
  })

  it('has no formatting: a formatting request gets "method not found", and no text changes', async () => {
    const request = client.connection.sendRequest(DocumentFormattingRequest.type, {textDocument: {uri: uri('01-01-PLAN.md')}, options: {tabSize: 2, insertSpaces: true}})
    await expect(request).rejects.toMatchObject({code: ErrorCodes.MethodNotFound})
    expect(client.capabilities.documentFormattingProvider).toBeUndefined()
    expect(client.capabilities.documentRangeFormattingProvider).toBeUndefined()
  })

  it('publishes one frontmatter message for a plan whose YAML nests 3,000 deep, and nothing about a crash', async () => {
    const deep = uri('01-09-PLAN.md')
    await client.open(deep, `---\nphase: 01\nplan: 09\ndeep:\n${'- '.repeat(3000)}x\n---\n\nText.\n`)
    const diagnostics = await client.until(deep, (found) => found.some((diagnostic) => diagnostic.message.includes('nested more than 64 levels deep')))
    expect(diagnostics.filter((diagnostic) => diagnostic.message.includes('nested more than 64 levels deep'))).toHaveLength(1)
    expect(diagnostics.filter((diagnostic) => /crashed|Maximum call stack/.test(diagnostic.message))).toEqual([])
  })

  it('survives client quirks: a didOpen whose uri is not a string, a [null] configuration answer', async () => {
    await client.connection.sendNotification(DidOpenTextDocumentNotification.type, {textDocument: {uri: 42 as never, languageId: 'markdown', version: 1, text: brokenPlan}})
    await client.connection.sendNotification(DidChangeTextDocumentNotification.type, {textDocument: {uri: 42 as never, version: 2}, contentChanges: [{text: brokenPlan}]})
    await client.connection.sendNotification(DidCloseTextDocumentNotification.type, {textDocument: {uri: 42 as never}})
    await client.connection.sendNotification(DidOpenTextDocumentNotification.type, {textDocument: {uri: {path: '/x.md'} as never, languageId: 'markdown', version: 1, text: brokenPlan}})
    await client.connection.sendNotification(DidOpenTextDocumentNotification.type, {} as never)
    await client.connection.sendNotification(DidChangeWatchedFilesNotification.type, {changes: [{uri: 7 as never, type: FileChangeType.Changed}]})
    await client.connection.sendNotification(DidChangeConfigurationNotification.type, {settings: null})
    expect(client.configurationRequests).toBeGreaterThan(0)
    // Still alive, still linting.
    await client.open(uri('01-09-PLAN.md'), brokenPlan.replace('plan: 01', 'plan: 09'))
    await client.until(uri('01-09-PLAN.md'), (list) => list.length > 0)
    expect(client.server.exitCode).toBeNull()
  })

  it('lints only documents in planning trees', async () => {
    const notes = pathToFileURL(path.join(root, 'notes.md')).href
    await client.open(notes, '# Notes\n\n## PLAN COMPLETE\n\n## After\n')
    await client.open(uri('01-08-PLAN.md'), brokenPlan.replace('plan: 01', 'plan: 08'))
    await client.until(uri('01-08-PLAN.md'), (list) => list.length > 0)
    expect(client.diagnostics.has(notes)).toBe(false)
  })

  it('clears a diagnostic when the buffer is fixed', async () => {
    await client.change(uri('01-01-PLAN.md'), brokenPlan.replace('s3-compatable', 's3-compatible'))
    const diagnostics = await client.until(uri('01-01-PLAN.md'), (list) => !list.some((diagnostic) => diagnostic.code === 'auto-select-option'))
    expect(diagnostics.map((diagnostic) => diagnostic.code)).toEqual(['autonomous-flag'])
  })

  it('reports a cycle through a plan that is only on disk', async () => {
    // 01-02 (on disk, not open) depends on 01-03; the open buffer of 01-03 now depends on 01-02.
    // Only `depends_on` changes: 01-03 stays in wave 1, as on disk.
    await client.open(uri('01-03-PLAN.md'), planWith('03', ['01-02'], {wave: 1}))
    const diagnostics = await client.until(uri('01-03-PLAN.md'), (list) => list.length > 0)
    expect(diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.message])).toEqual([
      [
        'no-dependency-cycle',
        '`depends_on` entry `01-02` closes a dependency cycle: 01-03 → 01-02 → 01-03; none of these plans can start until one of these dependencies is removed'
      ]
    ])
  })

  it('uses unsaved buffers of other plans, and re-checks open plans when a plan they depend on changes', async () => {
    // 01-04 exists only as a buffer; 01-03's buffer depends on 01-02 (disk), 01-04 depends on 01-03's buffer.
    await client.open(uri('01-04-PLAN.md'), planWith('04', ['01-03']))
    await client.until(uri('01-04-PLAN.md'), (list) => list.length === 0)
    // 01-03 now depends on 01-04: a cycle between two buffers, neither saved.
    await client.change(uri('01-03-PLAN.md'), planWith('03', ['01-04'], {wave: 1}))
    const cycle = await client.until(uri('01-04-PLAN.md'), (list) => list.length > 0)
    expect(cycle.map((diagnostic) => diagnostic.code)).toEqual(['no-dependency-cycle'])
    expect(cycle[0].message).toContain('01-04 → 01-03 → 01-04')
    expect(fs.existsSync(path.join(root, phase, '01-04-PLAN.md'))).toBe(false)
    // Breaking the cycle in 01-03 clears 01-04's diagnostic without touching 01-04.
    await client.change(uri('01-03-PLAN.md'), planWith('03', []))
    await client.until(uri('01-04-PLAN.md'), (list) => list.length === 0)
  })
})

describe('planlint-language-server with a .remarkrc', {timeout: 90_000}, () => {
  it('uses the project configuration instead of the recommended preset', async () => {
    const dist = path.resolve(languageServerBin, '../../..')
    const root = writeTree([
      {path: 'package.json', text: '{"name": "fixture", "private": true}\n'},
      {
        path: '.remarkrc.json',
        text: JSON.stringify({plugins: [path.join(dist, 'src/index.js'), [path.join(dist, 'plugins/autonomous-flag.js'), false]]})
      }
    ])
    const client = await startClient(root)
    try {
      const planUri = pathToFileURL(path.join(root, phase, '01-01-PLAN.md')).href
      await client.open(planUri, brokenPlan)
      const diagnostics = await client.until(planUri, (list) => list.length > 0)
      expect(diagnostics.map((diagnostic) => diagnostic.code)).toEqual(['auto-select-option'])
    } finally {
      stop(client)
      removeTree(root)
    }
  })
})

describe('planlint-language-server with a .remarkignore', {timeout: 90_000}, () => {
  it('gives an ignored plan no diagnostics, as the CLI skips it, and lints it once the ignore file no longer says so', async () => {
    const root = writeTree([
      {path: 'package.json', text: '{"name": "fixture", "private": true}\n'},
      {path: '.remarkignore', text: '.planning/archive/\n'}
    ])
    const client = await startClient(root)
    try {
      // The server asks to watch files once initialized: by the time a plan is linted, it has.
      const other = pathToFileURL(path.join(root, phase, '01-05-PLAN.md')).href
      await client.open(other, planWith('05', []))
      await client.until(other, () => true)
      expect(client.registrations.flatMap((registration) => (registration.registerOptions as {watchers: Array<{globPattern: string}>}).watchers.map((watcher) => watcher.globPattern))).toContain(
        '**/.remarkignore'
      )
      const archived = pathToFileURL(path.join(root, '.planning/archive/01-storage/01-01-PLAN.md')).href
      const current = pathToFileURL(path.join(root, phase, '01-01-PLAN.md')).href
      await client.open(archived, brokenPlan)
      await client.open(current, brokenPlan)
      await client.until(current, (list) => list.length === 2)
      expect(await client.until(archived, () => true)).toEqual([])
      // The ignore file changes on disk; the client's watcher says so.
      fs.writeFileSync(path.join(root, '.remarkignore'), '')
      await client.connection.sendNotification(DidChangeWatchedFilesNotification.type, {
        changes: [{uri: pathToFileURL(path.join(root, '.remarkignore')).href, type: FileChangeType.Changed}]
      })
      const diagnostics = await client.until(archived, (list) => list.length > 0)
      expect(diagnostics.map((diagnostic) => diagnostic.code)).toEqual(['autonomous-flag', 'auto-select-option'])
    } finally {
      stop(client)
      removeTree(root)
    }
  })
})

describe('planlint-language-server under a burst of edits to a 1 MB plan', {timeout: 180_000}, () => {
  it('answers a request sent in the middle of the burst after at most the lint under way, and lints only the newest version', async () => {
    const paragraphs = Array.from({length: 12_000}, (_, index) => `Paragraph ${index} says how the storage layer keeps uploads in the chosen object store.\n`)
    const big = planWith('01', []) + '\n## Notes\n\n' + paragraphs.join('\n')
    expect(big.length).toBeGreaterThan(1_000_000)
    const root = writeTree([{path: 'package.json', text: '{"name": "fixture", "private": true}\n'}])
    const client = await startClient(root)
    try {
      const planUri = pathToFileURL(path.join(root, phase, '01-01-PLAN.md')).href
      const lastLine = big.split('\n').length - 1
      // Opened and typed into at once: the burst arrives while the server reads the plan.
      void client.open(planUri, big)
      const publishedFor = () => client.published.filter((entry) => entry.uri === planUri).map((entry) => entry.version)
      let answer: Promise<{actions: unknown; publishedBefore: unknown[]}> | undefined
      let version = 1
      for (let index = 0; index < 200; index++) {
        version = client.type(planUri, lastLine, index, 'x')
        if (index === 99) {
          answer = client.connection
            .sendRequest(CodeActionRequest.type, {textDocument: {uri: planUri}, range: {start: {line: 0, character: 0}, end: {line: 0, character: 0}}, context: {diagnostics: []}})
            .then((actions) => ({actions, publishedBefore: publishedFor()}))
        }
      }
      // The request waited at most for the lint under way when it came (its answer: nothing to offer for the current text)...
      const {actions, publishedBefore} = (await answer)!
      expect(actions).toEqual([])
      expect(publishedBefore.length).toBeLessThanOrEqual(1)
      await client.until(planUri, () => publishedFor().includes(version), 150_000)
      // ...and after that lint comes the newest version's: not one lint per edit, no backlog.
      expect(publishedFor().length).toBeLessThanOrEqual(2)
      expect(publishedFor().at(-1)).toBe(version)
      expect(client.server.exitCode).toBeNull()
    } finally {
      stop(client)
      removeTree(root)
    }
  })
})

describe("the language server's session keeps a tree's graph facts while a plan's body is typed", () => {
  it('keeps the graph when an edit changes no frontmatter, and builds it again when the frontmatter changes', () => {
    const root = writeTree([
      {path: `${phase}/01-01-PLAN.md`, text: planWith('01', [])},
      {path: `${phase}/01-02-PLAN.md`, text: planWith('02', ['01-01'])}
    ])
    try {
      const session = new LintSession()
      const plan = path.join(root, phase, '01-02-PLAN.md')
      const text = planWith('02', ['01-01'])
      expect(session.openDocument(plan, text)).toBe(true)
      const graph = session.graphFor(plan, text)
      // Typing in a task's body: the same graph, with what it resolved.
      const typed = text.replace('Run the migration.', 'Run the migration, then check it.')
      expect(session.openDocument(plan, typed)).toBe(false)
      expect(session.graphFor(plan, typed)).toBe(graph)
      // A new dependency is a new graph fact: the tree's other open plans need a re-check.
      const depending = typed.replace('depends_on: ["01-01"]', 'depends_on: ["01-01", "01-03"]')
      expect(session.openDocument(plan, depending)).toBe(true)
      const rebuilt = session.graphFor(plan, depending)
      expect(rebuilt).not.toBe(graph)
      expect(rebuilt.planAt(plan)?.dependsOn.map((entry) => entry.text)).toEqual(['01-01', '01-03'])
    } finally {
      removeTree(root)
    }
  })

  it('keeps a summary open in the editor as the record of its plan', () => {
    const root = writeTree([
      {path: `${phase}/01-01-PLAN.md`, text: planWith('01', [])},
      {path: `${phase}/01-01-SUMMARY.md`, text: '---\nphase: 01-storage\nplan: 01\n---\n\n# Summary\n'}
    ])
    try {
      const session = new LintSession()
      const plan = path.join(root, phase, '01-01-PLAN.md')
      const summary = path.join(root, phase, '01-01-SUMMARY.md')
      session.openDocument(summary, '---\nphase: 01-storage\nplan: 01\n---\n\n# Summary\n\nAll done.\n')
      const graph = session.graphFor(plan, planWith('01', []))
      expect(graph.executionState(graph.planAt(plan)!)).toBe('executed')
    } finally {
      removeTree(root)
    }
  })
})

/** A remark-lint rule of another package (remark-lint-no-duplicate-headings' check, written here: it is not a dependency), as a project's `.remarkrc` would load it. */
const duplicateHeadingsPlugin = `export default function remarkLintNoDuplicateHeadings() {
  return (tree, file) => {
    const seen = new Map()
    const visit = (node) => {
      if (node.type === 'heading') {
        const text = node.children.map((child) => child.value ?? '').join('')
        const first = seen.get(text)
        if (first) file.message('Do not use headings with similar content (' + first.line + ':' + first.column + ')', {place: node.position, ruleId: 'no-duplicate-headings', source: 'remark-lint'})
        else seen.set(text, node.position.start)
      }
      for (const child of node.children ?? []) visit(child)
    }
    visit(tree)
  }
}
`

/** Plans written to give messages of many kinds: an unused suppression, an executed plan's findings (seen with includeExecuted), CRLF line ends, a duplicate heading. */
const craftedPlans = [
  {
    path: '.planning/phases/03-crafted/03-01-PLAN.md',
    text: `${planWith('01', [], {files: ['src/a.ts']}).replace('phase: 01-storage', 'phase: 03-crafted')}
## Notes

<!-- planlint-disable-next-line auto-select-option -- nothing here to silence -->
<task type="auto">
  <name>Write B</name>
  <files>src/a.ts, src/b.ts</files>
  <action>Write src/a.ts and src/b.ts.</action>
  <verify>npm test</verify>
  <done>B works</done>
</task>

## Notes
`
  },
  {
    path: '.planning/phases/03-crafted/03-02-PLAN.md',
    text: '---\nphase: 03-crafted\nplan: 02\nwave: 1\ndepends_on: ["03-01"]\nautonomous: true\n---\n\n<task type="checkpoint:human-action">\n  <name>Run it</name>\n  <action>Run `npm test` and check it passes.</action>\n  <verify>npm test</verify>\n</task>\n'
  },
  {path: '.planning/phases/03-crafted/03-02-SUMMARY.md', text: '---\nphase: 03-crafted\nplan: 02\n---\n\n# Summary\n\nDone.\n'},
  {
    path: '.planning/phases/03-crafted/03-03-PLAN.md',
    text: '---\r\nphase: 03-crafted\r\nplan: 03\r\nwave: 1\r\ndepends_on: [03-09]\r\nautonomous: true\r\n---\r\n\r\n<task type="auto">\r\n  <name>Do C</name>\r\n  <action>Edit src/c.ts.</action>\r\n</task>\r\n'
  }
]

/** A message as an editor shows it: what the CLI's JSON and the server's diagnostics are compared on. */
interface Shown {
  code: string | number | undefined
  severity: number | undefined
  message: string
  range: Diagnostic['range']
}

const inOrder = (list: Shown[]) => list.map((shown) => JSON.stringify(shown)).sort()

const shownOfDiagnostic = ({code, severity, message, range}: Diagnostic): Shown => ({code, severity, message, range})

const shownOfCli = (message: {ruleId: string; severity: 1 | 2; message: string; line: number; column: number; endLine: number; endColumn: number}): Shown => ({
  code: message.ruleId,
  // The CLI's 2 is an error, the protocol's 1.
  severity: message.severity === 2 ? 1 : 2,
  message: message.message,
  range: {start: {line: message.line - 1, character: message.column - 1}, end: {line: message.endLine - 1, character: message.endColumn - 1}}
})

const shownOfRemark = (message: VFileMessage): Shown => ({
  code: message.ruleId,
  severity: message.fatal ? 1 : 2,
  message: message.reason,
  range: {start: {line: message.line! - 1, character: message.column! - 1}, end: {line: message.place!.end.line - 1, character: message.place!.end.column - 1}}
})

describe('planlint-language-server publishes what the CLI reports', {timeout: 120_000}, () => {
  const examples = [...readTree(path.join(repository, 'examples'))].map(([file, text]) => ({path: file, text}))
  const trees = [
    {name: 'a configuration of planlint only (linted without remark)', plugins: ['planlint']},
    {name: 'a configuration that adds a remark-lint rule of another package (linted through remark)', plugins: ['planlint', './no-duplicate-headings.mjs']}
  ]
  for (const {name, plugins} of trees) {
    it(`with ${name}: ranges, messages, rule ids and severities on the example plans and crafted ones; the other rule's messages too`, async () => {
      const settings = {planlint: {includeExecuted: true}}
      const root = writeTree([
        {path: 'package.json', text: '{"name": "fixture", "private": true, "type": "module"}\n'},
        {path: '.remarkrc.json', text: JSON.stringify({plugins: [...plugins, ['planlint/rules/task-elements', 'error']], settings})},
        {path: 'no-duplicate-headings.mjs', text: duplicateHeadingsPlugin},
        ...examples,
        ...craftedPlans
      ])
      installPlanlint(root)
      const client = await startClient(root)
      try {
        const cli = JSON.parse(planlint(root, '--format', 'json', '.planning').stdout) as Array<{filePath: string; messages: Parameters<typeof shownOfCli>[0][]}>
        const files = [...readTree(path.join(root, '.planning'))].filter(([file]) => file.endsWith('.md'))
        expect(files.length).toBe(cli.length)
        for (const [file, text] of files) await client.open(pathToFileURL(path.join(root, '.planning', file)).href, text)
        const { default: duplicateHeadings } = (await import(pathToFileURL(path.join(root, 'no-duplicate-headings.mjs')).href)) as {default: () => void}
        let otherRuleMessages = 0
        for (const [file, text] of files) {
          const filePath = path.join(root, '.planning', file)
          const published = await client.until(pathToFileURL(filePath).href, () => true)
          const expected = cli.find((entry) => entry.filePath === filePath)!.messages.map(shownOfCli)
          if (plugins.includes('./no-duplicate-headings.mjs')) {
            const other = (await remark().use(remarkFrontmatter).use(duplicateHeadings).process(text)).messages.map(shownOfRemark)
            otherRuleMessages += other.length
            expected.push(...other)
          }
          expect(inOrder(published.map(shownOfDiagnostic)), file).toEqual(inOrder(expected))
        }
        // The example tree's errors, the crafted plans' (an executed plan's, a CRLF plan's, the unused suppression) are all there.
        const codes = new Set(cli.flatMap((entry) => entry.messages.map((message) => message.ruleId)))
        for (const code of ['no-dependency-cycle', 'auto-select-option', 'suppression', 'autonomous-flag', 'no-automatable-human-action', 'task-elements', 'completion-marker']) expect(codes).toContain(code)
        expect(otherRuleMessages).toBe(plugins.length === 1 ? 0 : 1)
      } finally {
        stop(client)
        removeTree(root)
      }
    })
  }
})
