import {rules} from '../rules/index.js'
import {closestFirst, isNearMiss} from './distance.js'
import type {Directive} from './model/directives.js'
import type {PlanDocument} from './model/document.js'
import {isReported, type Finding, type RunSettings} from './rule.js'
import type {LintSession} from './session.js'
import {suppressedBy} from './suppression.js'

export {suppressionDocsUrl} from './docs-url.js'

const knownRuleIds: readonly string[] = Object.keys(rules)

const label = (directive: Directive) => (directive.syntax === 'planlint' ? `planlint-${directive.kind}` : `lint ${directive.kind}`)

/**
 * `planlint:suppression`: warns about suppression comments that name no
 * planlint rule or suppressed nothing. Each rule is its own plugin and drops
 * its suppressed findings itself (`src/remark.ts`), so only a plugin that runs
 * after all of them knows which comments were used: the presets list it last.
 * remark-lint's `lint` comments are shared with remark-lint, so only their
 * planlint rule ids are checked. Plans the rules do not report on (they have
 * run) are not checked either: no comment in them can suppress anything.
 * `LintSession.lint` runs this after the rules; the remark plugin is
 * `remarkSuppressionCheck` (`src/remark.ts`).
 */
export function unusedSuppressions(document: PlanDocument, session: LintSession, settings: RunSettings | undefined): Finding[] {
  if (document.kind === 'other' || !isReported(document, session, settings)) return []
  const findings: Finding[] = []
  for (const directive of document.directives) {
    const used = suppressedBy(document, directive)
    const comment = label(directive)
    if (directive.syntax === 'planlint') {
      for (const {id, range} of directive.ruleIds) {
        if (knownRuleIds.includes(id)) continue
        const closest = closestFirst(id, knownRuleIds)[0]
        const hint = closest && isNearMiss(id, closest) ? `did you mean \`${closest}\`?` : 'see the rule list in the planlint docs'
        findings.push({message: `\`${id}\` is no planlint rule; ${hint}`, range})
      }
    }
    if (directive.kind === 'enable') continue
    const named = directive.ruleIds.filter(({id}) => knownRuleIds.includes(id))
    if (directive.ruleIds.length === 0 && directive.syntax === 'planlint' && used.size === 0) {
      findings.push({message: `This \`${comment}\` comment suppresses no message; remove it`, range: directive.range})
    }
    for (const {id, range} of named) {
      if (used.has(id)) continue
      findings.push({message: `This \`${comment}\` comment suppresses no \`${id}\` message; remove \`${id}\` from it`, range})
    }
  }
  return findings
}

export {remarkSuppressionCheck as default} from './remark.js'

