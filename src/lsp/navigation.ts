import fs from 'node:fs'
import {fileURLToPath, pathToFileURL} from 'node:url'
import type {CodeLens, Connection, DocumentLink, Hover, Location, Position, ServerCapabilities, TextDocuments} from 'vscode-languageserver/node.js'
import {TextDocument} from 'vscode-languageserver-textdocument'
import type {DependencyEntry, PlanGraph, PlanNode} from '../graph/graph.js'
import {planDetails} from '../graph/render-model.js'
import {impliedWave} from '../graph/waves.js'
import type {LintSession} from '../session.js'

/**
 * Walking the plan graph in the editor (docs/graph.md, "In the editor"):
 * go-to-definition and document links from a `depends_on` entry to the plan
 * it names, a hover with that plan's title, wave and status, a code lens on
 * the frontmatter (its wave, what it waits for, how many plans wait for it),
 * and find-references from a plan to the plans that depend on it. All of it
 * reads the session's graph, so open buffers count as they do for the rules.
 */
export const navigationCapabilities: ServerCapabilities = {
  definitionProvider: true,
  referencesProvider: true,
  hoverProvider: true,
  documentLinkProvider: {resolveProvider: false},
  codeLensProvider: {resolveProvider: false}
}

const filePathOf = (uri: string) => {
  try {
    return uri.startsWith('file:') ? fileURLToPath(uri) : undefined
  } catch {
    return undefined
  }
}

const uriOf = (filePath: string) => pathToFileURL(filePath).href

/** Where one resolved entry leads: the plan, or the summary left of a plan that ran. */
function targetOf(graph: PlanGraph, from: PlanNode, entry: DependencyEntry): PlanNode | undefined {
  const resolution = graph.resolve(from, entry.text)
  return resolution.status === 'resolved' ? resolution.target : resolution.status === 'completed' ? resolution.summary : undefined
}

/** A plan's status as the hover and the code lens say it. */
function statusOf(graph: PlanGraph, plan: PlanNode): 'done' | 'superseded' | 'archived' | 'pending' {
  if (plan.summaryOnly) return 'done'
  const state = graph.executionState(plan)
  return state === 'executed' ? 'done' : state
}

/** The plans whose `depends_on` names `plan`, with the entries that do. */
function dependentsOf(graph: PlanGraph, plan: PlanNode): Array<{from: PlanNode; entry: DependencyEntry}> {
  return graph.nodes.flatMap((from) => (from.summaryOnly ? [] : from.dependsOn.filter((entry) => targetOf(graph, from, entry) === plan).map((entry) => ({from, entry}))))
}

export function registerNavigation(connection: Connection, documents: TextDocuments<TextDocument>, session: LintSession): void {
  /** A file's text: its buffer when open, else what is on disk. */
  const documentOf = (filePath: string): TextDocument | undefined => {
    const uri = uriOf(filePath)
    const open = documents.get(uri)
    if (open) return open
    try {
      return TextDocument.create(uri, 'markdown', 0, fs.readFileSync(filePath, 'utf8'))
    } catch {
      return undefined
    }
  }

  /** The open plan at `uri`, the graph it is in, and the `depends_on` entry at `position`, if any. */
  const planAt = (uri: string, position?: Position) => {
    const filePath = filePathOf(uri)
    const document = documents.get(uri)
    if (!filePath || !document) return undefined
    const graph = session.graphFor(filePath, document.getText())
    const node = graph.planAt(filePath)
    if (!node) return undefined
    const offset = position === undefined ? -1 : document.offsetAt(position)
    const entry = node.dependsOn.find(({range}) => range[0] <= offset && offset <= range[1])
    return {graph, node, document, entry}
  }

  const rangeIn = (document: TextDocument, range: readonly [number, number]) => ({start: document.positionAt(range[0]), end: document.positionAt(range[1])})
  const top = {start: {line: 0, character: 0}, end: {line: 0, character: 0}}

  /** `01-02 · Health check`: a plan's id and title, for hovers. */
  const nameOf = (plan: PlanNode) => {
    const title = plan.summaryOnly ? undefined : planDetails(documentOf(plan.path)?.getText() ?? '').title
    return title === undefined ? plan.name : `${plan.name} · ${title}`
  }

  const waveText = (graph: PlanGraph, plan: PlanNode) => {
    const implied = plan.summaryOnly ? undefined : impliedWave(graph, plan)?.wave
    // No wave follows from `depends_on` (a cycle, an entry that names no plan): the declared one is all there is.
    if (implied === undefined) return plan.wave === undefined ? 'no wave' : `wave ${plan.wave}`
    return plan.wave === undefined || plan.wave === implied ? `wave ${implied}` : `wave ${implied} (declares ${plan.wave})`
  }

  connection.onDefinition(({textDocument, position}): Location[] => {
    const found = planAt(textDocument.uri, position)
    const target = found?.entry && targetOf(found.graph, found.node, found.entry)
    return target ? [{uri: uriOf(target.path), range: top}] : []
  })

  connection.onDocumentLinks(({textDocument}): DocumentLink[] => {
    const found = planAt(textDocument.uri)
    if (!found) return []
    return found.node.dependsOn.flatMap((entry) => {
      const target = targetOf(found.graph, found.node, entry)
      return target ? [{range: rangeIn(found.document, entry.range), target: uriOf(target.path), tooltip: `Open ${target.name}`}] : []
    })
  })

  connection.onHover(({textDocument, position}): Hover | null => {
    const found = planAt(textDocument.uri, position)
    if (!found?.entry) return null
    const {graph, node, document, entry} = found
    const resolution = graph.resolve(node, entry.text)
    const target = targetOf(graph, node, entry)
    let value: string
    if (target) {
      const status = target.summaryOnly ? 'done (only its summary is left)' : statusOf(graph, target)
      value = `**${nameOf(target)}**\n\n${waveText(graph, target)} · ${status}`
    } else if (resolution.status === 'ambiguous') {
      value = `\`${entry.text}\` could be ${resolution.candidates.map((candidate) => `\`${candidate.name}\``).join(', ')}`
    } else {
      value = `\`${entry.text}\` ${resolution.status === 'missing' ? resolution.reason : 'names no plan'}`
    }
    return {contents: {kind: 'markdown', value}, range: rangeIn(document, entry.range)}
  })

  connection.onCodeLens(({textDocument}): CodeLens[] => {
    const found = planAt(textDocument.uri)
    if (!found) return []
    const {graph, node} = found
    const after = node.dependsOn.flatMap((entry) => {
      const resolution = graph.resolve(node, entry.text)
      if (resolution.status === 'missing' && resolution.nothing) return []
      const target = targetOf(graph, node, entry)
      if (!target) return [`${entry.text} (missing)`]
      const status = statusOf(graph, target)
      return [status === 'pending' ? target.name : `${target.name} (${status})`]
    })
    const dependents = new Set(dependentsOf(graph, node).map(({from}) => from)).size
    const parts = [
      waveText(graph, node),
      ...(after.length > 0 ? [`after ${after.join(', ')}`] : []),
      dependents === 0 ? 'no plan depends on this' : `${dependents} plan${dependents === 1 ? '' : 's'} ${dependents === 1 ? 'depends' : 'depend'} on this`
    ]
    // A lens whose command is empty is a label: nothing to run when it is clicked.
    return [{range: top, command: {title: parts.join(' · '), command: ''}}]
  })

  connection.onReferences(({textDocument, position, context}): Location[] => {
    const found = planAt(textDocument.uri, position)
    if (!found) return []
    // On a `depends_on` entry: the plans that depend on the plan it names; elsewhere, on this plan.
    const plan = found.entry ? targetOf(found.graph, found.node, found.entry) : found.node
    if (!plan) return []
    const locations = dependentsOf(found.graph, plan).flatMap(({from, entry}) => {
      const document = documentOf(from.path)
      return document ? [{uri: uriOf(from.path), range: rangeIn(document, entry.range)}] : []
    })
    return context.includeDeclaration ? [{uri: uriOf(plan.path), range: top}, ...locations] : locations
  })
}
