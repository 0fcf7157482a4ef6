import {definePreset} from './define.js'

/**
 * The GSD conventions that hold for any plan: every rule at its default,
 * except `human-verify-mode` (it reads a config key that plans written before
 * GSD's end-of-phase default never set: on the real corpus it flags every
 * human-verify of 407 plans), `read-first-paths` (a Plan-Build-Run element)
 * and `pbr-plan-format` (Plan-Build-Run's own task ids, complexity and summary).
 */
export default definePreset({
  'human-verify-mode': 'off',
  'read-first-paths': 'off',
  'pbr-plan-format': 'off'
})
