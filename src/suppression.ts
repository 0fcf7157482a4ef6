import type {Directive} from './model/directives.js'
import type {PlanDocument} from './model/document.js'
import type {Range} from './model/text.js'

/** Which rule ids each directive has suppressed so far, per document (read by `planlint:suppression`). */
const usage = new WeakMap<PlanDocument, Map<Directive, Set<string>>>()

const names = (directive: Directive, ruleId: string) =>
  directive.ruleIds.length === 0 || directive.ruleIds.some((entry) => entry.id === ruleId)

/**
 * The directive that suppresses a finding of `ruleId` at `range`, if any: the
 * last `disable`/`enable` for the rule before it decides (as in ESLint), and a
 * `disable-next-line` or `lint ignore` whose scope holds the finding's start.
 */
function suppressor(document: PlanDocument, ruleId: string, range: Range): Directive | undefined {
  const offset = range[0]
  let state: Directive | undefined
  for (const directive of document.directives) {
    if (!names(directive, ruleId)) continue
    const [start, end] = directive.scope
    if (directive.kind === 'disable' || directive.kind === 'enable') {
      if (start <= offset) state = directive
    } else if (start <= offset && offset <= end) {
      return directive
    }
  }
  return state?.kind === 'disable' ? state : undefined
}

/** Whether a finding is suppressed by an inline comment; records the use for the unused-directive check. */
export function isSuppressed(document: PlanDocument, ruleId: string, range: Range): boolean {
  const directive = suppressor(document, ruleId, range)
  if (!directive) return false
  let used = usage.get(document)
  if (!used) usage.set(document, (used = new Map()))
  if (!used.has(directive)) used.set(directive, new Set())
  used.get(directive)!.add(ruleId)
  return true
}

/** The rule ids a directive has suppressed messages of in this document. */
export function suppressedBy(document: PlanDocument, directive: Directive): ReadonlySet<string> {
  return usage.get(document)?.get(directive) ?? new Set()
}
