import path from 'node:path'
import {safeFinding} from './edits.js'
export {docsBaseUrl, docsUrl} from './docs-url.js'
import type {DocumentKind, PlanDocument} from './model/document.js'
import type {Range} from './model/text.js'
import {isInMilestoneArchive, type PlanGraph} from './graph/graph.js'
import type {PlanningConfig} from './config.js'
import type {LintSession} from './session.js'
import {isSuppressed} from './suppression.js'
import {optionsChecker, optionsSchemaOf, type JsonSchema} from './options.js'

export type Severity = 'error' | 'warning'

/** One contiguous text edit on the source. An insertion has an empty range. */
export interface Edit {
  range: Range
  text: string
}

/** What a rule reports: a message at a range, with an optional fix or suggested edits. */
export interface Finding {
  message: string
  range: Range
  /** A machine-applicable edit (applied by `--fix`). */
  fix?: Edit
  /** Candidate edits of one range, closest first, none applied automatically. */
  suggestions?: Edit[]
  /**
   * This finding's severity when it differs from the rule's (a warning inside an
   * error rule, or the reverse). It wins over the severity the rule runs at, so
   * configuring a rule changes only its other findings; `off` still silences all.
   */
  severity?: Severity
}

export interface RuleContext<Options> {
  document: PlanDocument
  options: Options
  /** The plan graph of the document's planning tree (built on first use, shared by the session). */
  graph(): PlanGraph
  /** `.planning/config.json` of the document's planning tree (read on first use, shared by the session). */
  config(): PlanningConfig
  report(finding: Finding): void
}

/** What a rule module writes: `defineRule` adds the options schema and check. */
export interface RuleSpec<Options = Record<string, unknown>> {
  id: string
  /** One sentence: what the rule checks. */
  description: string
  severity: Severity
  kinds: DocumentKind[]
  /**
   * `fix` when the rule reports fixes (it may also suggest), `suggestion` when it
   * only suggests. ESLint refuses fixes and suggestions from a rule that does not say so.
   */
  fixable?: 'fix' | 'suggestion'
  /** Every option with its default: the options schema is read off these (see `src/options.ts`). */
  defaultOptions: Options
  /** Schemas of options whose default cannot show their shape (an empty list of objects). */
  optionSchemas?: Partial<Record<keyof Options & string, JsonSchema>>
  check(context: RuleContext<Options>): void
}

/**
 * A planlint rule, independent of remark and ESLint: the adapters
 * (`src/remark.ts`, `src/eslint/index.ts`) and the presets are made from
 * definitions, and turn its findings into their messages.
 */
export interface RuleDefinition<Options = Record<string, unknown>> extends RuleSpec<Options> {
  /** JSON Schema of the options object. */
  optionsSchema: JsonSchema
  /** What is wrong with user options, as a phrase naming the option; `undefined` when they are fine. */
  optionsProblem(options: unknown): string | undefined
}

/**
 * Makes a rule definition: the spec, with the schema of its options and a
 * check of them. `Options` types the rule's own `check`; the definition
 * leaves it out, so that lists of rules need not name each rule's options.
 */
export function defineRule<Options extends object = Record<string, unknown>>(spec: RuleSpec<Options>): RuleDefinition<any> {
  const optionsSchema = optionsSchemaOf(spec.defaultOptions, spec.optionSchemas)
  return {...spec, optionsSchema, optionsProblem: optionsChecker(optionsSchema)}
}

/** Merges user options over the rule's defaults (one level deep, like ESLint's defaultOptions). */
export function resolveOptions<Options>(rule: RuleDefinition<Options>, options: unknown): Options {
  if (options === undefined || options === null || typeof options !== 'object' || Array.isArray(options)) {
    return rule.defaultOptions
  }
  return {...rule.defaultOptions, ...(options as Partial<Options>)}
}

/**
 * How a front end runs the rules, from its shared settings: `settings.planlint`
 * in a remark configuration or an ESLint config, and the CLI's flags.
 */
export interface RunSettings {
  /** Report on plans that have run or are superseded too (`--include-executed`), to audit a tree's history. */
  includeExecuted?: boolean
}

/**
 * Whether rules report on a document. By default not on a plan that nothing
 * will execute again: one that has run (a summary pairs with it), is
 * `status: superseded`, or sits in a finished milestone's archive (where no
 * other document is reported either: the milestone is closed). Such plans stay
 * in the plan graph, so the other plans' cross-file checks still see them.
 */
export function isReported(document: PlanDocument, session: LintSession, settings: RunSettings | undefined): boolean {
  if (settings?.includeExecuted) return true
  const filePath = document.path ?? path.resolve('unnamed.md')
  if (document.kind !== 'plan') return !isInMilestoneArchive(path.relative(session.planningRootOf(filePath), path.dirname(filePath)))
  const graph = session.graphOf(document, filePath)
  const node = graph.planAt(filePath)
  return !node || graph.executionState(node) === 'pending'
}

/**
 * Runs a rule on a document for a front end (remark, ESLint) in `session`
 * (which gives the rule its plan graph and planning config): skips documents
 * of other kinds and plans that have run (see `isReported`), drops findings
 * that inline comments suppress and unsafe edits from each finding (see
 * `src/edits.ts`), and turns a crash into `onCrash` so that the other rules
 * still run.
 */
export function runRule<Options>(
  rule: RuleDefinition<Options>,
  document: PlanDocument,
  options: unknown,
  session: LintSession,
  report: (finding: Finding) => void,
  onCrash: (message: string, error: unknown) => void,
  settings?: RunSettings
): void {
  if (!rule.kinds.includes(document.kind)) return
  const filePath = document.path ?? path.resolve('unnamed.md')
  try {
    if (!isReported(document, session, settings)) return
    // A file that is not text planlint can read (UTF-16) gets its one message below, from the first rule, and no rule reads it.
    if (!document.failure?.unreadable) rule.check({
      document,
      options: resolveOptions(rule, options),
      graph: () => session.graphOf(document, filePath),
      config: () => session.configFor(filePath),
      report: (finding) => {
        // Inline suppression comments drop a finding before it becomes a message, in every front end.
        if (!isSuppressed(document, rule.id, finding.range)) report(safeFinding(document, finding))
      }
    })
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    onCrash(`Rule \`${rule.id}\` crashed on this file: ${reason}. Please report it.`, error)
  }
  // A part of the document model that could not be built: one message for the file, from the rule that first read it.
  if (document.failure && !document.failure.reported) {
    document.failure.reported = true
    onCrash(document.failure.message, undefined)
  }
}
