import path from 'node:path'
import type {Root} from 'mdast'
import type {Plugin} from 'unified'
import {lintRule} from 'unified-lint-rule'
import type {VFile} from 'vfile'
import {buildDocument, type PlanDocument} from './model/document.js'
import {planGraphFor, type PlanGraph} from './graph/graph.js'
import {planningConfigFor} from './config.js'
import {docsUrl, resolveOptions, type Finding, type RuleDefinition} from './rule.js'
import {isSuppressed} from './suppression.js'

/** A remark plugin for one planlint rule; `rule` is its framework-independent definition. */
export type RemarkLintRule = Plugin<[unknown?], Root> & {rule: RuleDefinition<any>}

type SeverityConfig = 0 | 1 | 2 | 'off' | 'warn' | 'error' | 'on' | boolean

const severityWords = new Set<unknown>([0, 1, 2, 'off', 'warn', 'error', 'on', true, false])

/**
 * remark-lint's configuration (`severity`, `[severity, options]`, or options alone),
 * except that an unset or `on` severity means the rule's own default, not warning.
 */
function coerce(rule: RuleDefinition<any>, config: unknown): [SeverityConfig, unknown] {
  const fallback: SeverityConfig = rule.severity === 'error' ? 2 : 1
  let severity: unknown = undefined
  let options: unknown = config
  if (Array.isArray(config) && severityWords.has(config[0])) [severity, options] = config
  else if (severityWords.has(config)) [severity, options] = [config, undefined]
  if (severity === undefined || severity === 'on' || severity === true) severity = fallback
  return [severity as SeverityConfig, options]
}

/** Document models by syntax tree: built by the first rule that runs on a file, gone with the tree. */
const documents = new WeakMap<Root, PlanDocument>()

/** The shared document model of a file, built by the first rule that runs on it. */
export function documentOf(tree: Root, file: VFile): PlanDocument {
  let document = documents.get(tree)
  if (!document || document.text !== String(file.value)) {
    const filePath = file.path ? path.resolve(file.cwd, file.path) : undefined
    document = buildDocument(String(file.value), filePath, tree)
    documents.set(tree, document)
  }
  return document
}

function toMessage(file: VFile, document: PlanDocument, finding: Finding) {
  const place = finding.fix?.range ?? finding.range
  const message = file.message(finding.message, {
    place: {start: document.lines.point(place[0]), end: document.lines.point(place[1])}
  })
  const edits = finding.fix ? [finding.fix] : finding.suggestions
  if (edits && edits.length > 0) {
    if (!finding.fix) {
      message.place = {start: document.lines.point(edits[0].range[0]), end: document.lines.point(edits[0].range[1])}
    }
    message.actual = document.text.slice(edits[0].range[0], edits[0].range[1])
    message.expected = edits.map((edit) => edit.text)
  }
  Object.assign(message, {planlint: {fix: finding.fix, suggestions: finding.suggestions, severity: finding.severity}})
  return message
}

/** Turns a rule definition into a remark-lint style plugin (`[severity, options]`). */
export function remarkRule<Options>(rule: RuleDefinition<Options>): RemarkLintRule {
  const lint = lintRule({origin: `planlint:${rule.id}`, url: docsUrl(rule.id)}, (tree: Root, file: VFile, options: unknown) => {
    const document = documentOf(tree, file)
    if (!rule.kinds.includes(document.kind)) return
    let graph: PlanGraph | undefined
    const filePath = document.path ?? path.resolve(file.cwd, 'unnamed.md')
    try {
      rule.check({
        document,
        options: resolveOptions(rule, options),
        graph: () => (graph ??= planGraphFor(filePath, document.text)),
        config: () => planningConfigFor(filePath),
        report: (finding) => {
          // Inline suppression comments drop a finding before it becomes a message, in every front end.
          if (!isSuppressed(document, rule.id, finding.range)) toMessage(file, document, finding)
        }
      })
    } catch (error) {
      // A rule that throws must not take the file (or the run) down with it.
      const reason = error instanceof Error ? error.message : String(error)
      file.message(`Rule \`${rule.id}\` crashed on this file: ${reason}. Please report it.`, {
        place: {line: 1, column: 1},
        cause: error instanceof Error ? error : undefined
      })
    }
  }) as unknown as (config: unknown) => ((tree: Root, file: VFile, next: (error?: Error) => void) => void) | undefined
  const plugin = function (config?: unknown) {
    const transform = lint(coerce(rule, config))
    if (!transform) return
    return (tree: Root, file: VFile, next: (error?: Error) => void) => {
      const before = file.messages.length
      transform(tree, file, (error) => {
        for (const message of file.messages.slice(before)) {
          const planlint = (message as {planlint?: {severity?: string}}).planlint
          if (planlint?.severity === 'error') message.fatal = true
          if (planlint?.severity === 'warning') message.fatal = false
        }
        next(error)
      })
    }
  } as RemarkLintRule
  Object.defineProperty(plugin, 'name', {value: `planlint:${rule.id}`})
  plugin.rule = rule as RuleDefinition<any>
  return plugin
}
