import path from 'node:path'
import type {PlanGraph, PlanNode} from '../src/graph/graph.js'
import {frontmatterItems} from '../src/model/frontmatter.js'
import {idFamily, idsIn, isRequirementId, planningRequirements} from '../src/requirements.js'
import {byName} from '../src/graph/order.js'
import {defineRule} from '../src/rule.js'

/** Whether a folder's plan numbers skip some (a `07` with no `01` to `06`): plans gone with neither plan nor summary left. */
function numbersSkip(plans: readonly PlanNode[]): boolean {
  const numbers = new Set(plans.flatMap((plan) => (plan.plan !== undefined && /^\d+$/.test(plan.plan) ? [Number(plan.plan)] : [])))
  const highest = Math.max(0, ...numbers)
  for (let number = 1; number < highest; number++) if (!numbers.has(number)) return true
  return false
}

/**
 * The plans of a ROADMAP phase whose coverage can be judged: those of `node`'s
 * folder, when it is the phase's one folder under `phases/`, that will be scheduled, when none of them is known
 * only by its summary (its `requirements` are gone), none is gone without a trace (the numbers skip none)
 * and at least one names requirements (the generation of GSD that writes the key).
 */
function phasePlans(plans: PlanGraph, node: PlanNode): PlanNode[] | undefined {
  const folders = new Set(plans.nodes.filter((other) => other.phase === node.phase && path.dirname(other.directory) === path.dirname(node.directory)).map((other) => other.directory))
  if (folders.size !== 1) return undefined
  const inFolder = plans.inDirectory(node.directory)
  const members = inFolder.filter((other) => !other.summaryOnly && !other.superseded)
  const paired = new Set(inFolder.map((other) => (other.summaryOnly ? undefined : plans.summaryOf(other))))
  const orphanSummary = inFolder.some((other) => other.summaryOnly && !paired.has(other))
  if (orphanSummary || numbersSkip(inFolder) || !members.some((other) => (other.requirements?.length ?? 0) > 0)) return undefined
  return members
}

/**
 * GSD's plan checker (Dimension 1, "Requirement Coverage") fails a phase
 * when a requirement id ROADMAP.md assigns to it is in no plan's
 * `requirements`; a plan's id that REQUIREMENTS.md does not define traces to
 * nothing. Both documents are read only where they can be read with
 * confidence (see `src/requirements.ts`); elsewhere the rule says nothing.
 */
export default defineRule({
  id: 'requirements-coverage',
  description: "Every requirement ROADMAP.md assigns to a phase is in some plan's `requirements`, and every id a plan names is in REQUIREMENTS.md.",
  severity: 'warning',
  kinds: ['plan'],
  defaultOptions: {},
  check({document, graph, report}) {
    const frontmatter = document.frontmatter
    const entry = frontmatter?.entries.get('requirements')
    if (!frontmatter || !entry) return
    const plans = graph()
    const node = plans.planAt(document.path)
    // Only the plans of the tree's own `phases/` answer to its ROADMAP.md and REQUIREMENTS.md: an archived milestone's
    // plans (`archive/v1/phases/…`) had documents of their own, and quick tasks belong to no phase.
    if (!node || node.phase === undefined || path.dirname(node.directory) !== path.join(plans.root, 'phases')) return
    const {roadmap, defined, families} = planningRequirements(plans)
    if (defined && families) {
      for (const item of frontmatterItems(frontmatter, entry.node)) {
        const id = String(item.value ?? '').trim()
        // An id of a family REQUIREMENTS.md does not use (`D-03`, a decision of CONTEXT.md; ids a phase's SPEC.md assigns)
        // comes from another document: only a slip inside a family it defines (`AUTH-07` beside `AUTH-01`…`AUTH-06`) is reported.
        if (!isRequirementId(id) || defined.has(id.toUpperCase()) || !families.has(idFamily(id))) continue
        report({message: `\`${id}\` is no requirement of REQUIREMENTS.md: name an id it defines, or add the requirement there`, range: item.range})
      }
    }
    const assigned = roadmap?.get(node.phase)
    const members = assigned && phasePlans(plans, node)
    // The phase's missing ids are reported once: on its first plan still to run that has `requirements`, else (all have
    // run, which only `--include-executed` reports on) on its first plan that has them.
    const naming = members?.filter((other) => other.requirements !== undefined).sort(byName) ?? []
    const reporter = naming.find((other) => plans.executionState(other) === 'pending') ?? naming[0]
    if (!assigned || !members || reporter !== node) return
    // Ids are read out of each item, so `requirements: AUTH-01, AUTH-02` (one string) covers both.
    const covered = new Set(members.flatMap((other) => other.requirements ?? []).flatMap((text) => [...idsIn(text)]))
    for (const id of assigned) {
      if (covered.has(id.toUpperCase())) continue
      report({
        message: `ROADMAP.md assigns \`${id}\` to phase ${node.phase}, but no plan of the phase lists it in \`requirements\`: add it to the plan that delivers it, or correct ROADMAP.md`,
        range: entry.keyRange
      })
    }
  }
})
