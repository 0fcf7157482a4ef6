import {definePreset} from './define.js'

/**
 * The GSD conventions that hold for any plan: every rule at its default,
 * except `human-verify-mode` (it reads a config key that plans written before
 * GSD's end-of-phase default never set: on the real corpus it flags every
 * human-verify of 407 plans), `read-first-paths` (a Plan-Build-Run element)
 * and `pbr-plan-format` (Plan-Build-Run's own task ids, complexity and summary);
 * `max-tasks` keeps GSD's blocking sizes, but not its warnings at a fourth
 * task or a tenth file: a plan of four small tasks, or of ten files most of
 * which are one-line edits, generated components or config, does not deserve
 * them (the `gsd` preset keeps the plan checker's every level); `task-type`
 * leaves alone a tree's own word for auto work (`implementation`), which the
 * executor runs as the `auto` it means; `criteria-traps` leaves out R1 (exact
 * `grep -c` counts), right on 1 of 24 judged messages of real plans.
 */
export default definePreset({
  'human-verify-mode': 'off',
  'read-first-paths': 'off',
  'pbr-plan-format': 'off',
  'max-tasks': ['on', {warnAbove: 0, warnFilesAbove: 0}],
  'task-type': ['on', {reportAutoLikeTypes: false}],
  'criteria-traps': ['on', {traps: ['R2', 'R3', 'R4', 'R5', 'R6']}]
})
