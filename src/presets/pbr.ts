import {defaultsOf, definePreset} from './define.js'

const pbrTypes = ['feature', 'bugfix', 'refactor', 'infrastructure', 'docs', 'chore']

/**
 * Checkpoints as the contract writes them ("Checkpoint in Plan Format"): a
 * human-verify has the name, files, action, verify and done of its example,
 * since the executor runs its `<action>` and reports its `<done>` and
 * `<verify>`; every other checkpoint states its step in `<action>`. The plan
 * check leaves checkpoints out of the seven-element rule.
 */
const pbrCheckpoints = {
  'checkpoint:human-verify': ['name', 'files', 'action', 'verify', 'done'],
  'checkpoint:*': ['name', 'action']
}

/**
 * The Plan-Build-Run plan format (its agent contracts and `validatePlan`):
 * `implements` in the frontmatter, its `type` values, `read_first` and
 * `acceptance_criteria` in every task, one to three tasks, `PLAN-NN.md` names.
 * GSD-only checks (the human-verify mode, one-way decisions, negative-grep
 * gates, the acceptance-criteria traps, GSD's optional task parts) are off.
 */
export default definePreset({
  'frontmatter-schema': ['on', {required: [...(defaultsOf('frontmatter-schema').required as string[]), 'implements'], types: pbrTypes}],
  'plan-filename': ['on', {patterns: [...(defaultsOf('plan-filename').patterns as string[]), '^PLAN-\\d+[a-z]?\\.md$']}],
  // The contract's "each task needs all 7 elements"; its plan check (`validatePlan`) makes each missing one an error.
  'task-elements': ['on', {required: ['name', 'read_first', 'files', 'action', 'acceptance_criteria', 'verify', 'done'], recommended: [], checkpoints: pbrCheckpoints}],
  'task-type': ['on', {additionalTypes: ['code']}],
  // The planner's "DO NOT exceed scope limits (3 tasks, 8 files per plan)"; its plan check errors on a fourth task and on none.
  'max-tasks': ['on', {max: 3, warnAbove: 0, min: 1, maxFiles: 8, warnFilesAbove: 0}],
  // Its plan check warns on any missing part of `must_haves` (`must_haves missing "key_links" sub-field`).
  'must-haves': ['on', {keyLinksAlways: true}],
  'read-first-paths': 'warn',
  'human-verify-mode': 'off',
  'one-way-decision': 'off',
  'negative-grep-echo': 'off',
  'criteria-traps': 'off',
  'task-parts': 'off',
  'negative-gate-conflict': 'off'
})
