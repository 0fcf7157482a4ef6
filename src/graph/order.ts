import type {PlanGraph, PlanNode} from './graph.js'

/** Whether `from` waits for `to`, directly or through other plans of its phase. */
export function waitsFor(plans: PlanGraph, from: PlanNode, to: PlanNode): boolean {
  const seen = new Set<PlanNode>([from])
  const pending = [from]
  for (let plan = pending.pop(); plan; plan = pending.pop()) {
    for (const {target} of plans.edges(plan)) {
      if (target === to) return true
      if (target.directory !== from.directory || seen.has(target)) continue
      seen.add(target)
      pending.push(target)
    }
  }
  return false
}

/** Whether either plan's `coupling_justified` has an entry naming the other: their order does not matter. */
export function coupled(plans: PlanGraph, a: PlanNode, b: PlanNode): boolean {
  const names = (from: PlanNode, to: PlanNode) =>
    (from.coupledWith ?? []).some((id) => {
      const resolution = plans.resolve(from, id)
      return resolution.status === 'resolved' && resolution.target === to
    })
  return names(a, b) || names(b, a)
}

/** Plans in the order the planner numbers them (`01-02` before `01-10`). */
export const byName = (a: PlanNode, b: PlanNode): number => a.name.localeCompare(b.name, 'en', {numeric: true})

/** The plans of `plan`'s phase that wait for it, directly or through other plans of the phase (each plan `waitsFor` it): one pass over the phase's edges. */
export function waitingOn(plans: PlanGraph, plan: PlanNode): Set<PlanNode> {
  const dependents = plans.memo(`dependents\0${plan.directory}`, () => {
    const found = new Map<PlanNode, PlanNode[]>()
    for (const from of plans.inDirectory(plan.directory)) {
      for (const {target} of plans.edges(from)) {
        if (target.directory !== plan.directory) continue
        const list = found.get(target)
        if (list) list.push(from)
        else found.set(target, [from])
      }
    }
    return found
  })
  const waiting = new Set<PlanNode>()
  const pending = [plan]
  for (let next = pending.pop(); next; next = pending.pop()) {
    for (const from of dependents.get(next) ?? []) {
      if (waiting.has(from)) continue
      waiting.add(from)
      pending.push(from)
    }
  }
  return waiting
}
