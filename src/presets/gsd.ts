import {definePreset} from './define.js'

/**
 * Everything GSD's own validators check, at their severities, and the rest of
 * planlint's rules. Plan `type` is GSD's own pair ("`type`: `execute` or
 * `tdd`", `agents/gsd-planner.md`), and plans are sized by its plan checker
 * (Dimension 5: 4 tasks or 10 files warn, 5+ tasks or 15+ files block).
 * Tasks with neither a `type` nor a name are GSD tasks lacking their parts,
 * which `verify plan-structure` errors on, not another agent's format; and a
 * checkpoint needs the children `validatePlanTaskStructure` asks its type for,
 * by those names.
 */
/** The children `validatePlanTaskStructure` (gsd-core 1.14) errors on a checkpoint without, by type. */
export const gsdCheckpoints: Record<string, string[]> = {
  'checkpoint:human-verify': ['what-built', 'how-to-verify', 'resume-signal'],
  'checkpoint:decision': ['decision', 'options', 'resume-signal'],
  'checkpoint:human-action': ['action', 'instructions', 'verification', 'resume-signal'],
  'checkpoint:*': ['resume-signal']
}

export default definePreset({
  'frontmatter-schema': ['on', {types: ['execute', 'tdd'], emptyRequirements: true}],
  'task-elements': ['on', {foreignFormats: false, checkpoints: gsdCheckpoints}],
  // GSD warns on every `git` before a pipe; planlint's default only on one naming a remote ref or another folder.
  'criteria-traps': ['on', {gitPipeFailures: true}],
  'read-first-paths': 'off',
  'pbr-plan-format': 'off'
})
