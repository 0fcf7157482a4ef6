import {definePreset} from './define.js'

/** Everything GSD's own validators check, at their severities, and the rest of planlint's rules. */
export default definePreset({
  'read-first-paths': 'off'
})
