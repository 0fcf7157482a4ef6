import autoSelectOption from './auto-select-option.js'
import autonomousFlag from './autonomous-flag.js'
import completionMarker from './completion-marker.js'
import dependencyExists from './dependency-exists.js'
import noAutomatableHumanAction from './no-automatable-human-action.js'
import noDependencyCycle from './no-dependency-cycle.js'

/** Every rule, by id. */
export const rules = {
  'auto-select-option': autoSelectOption,
  'autonomous-flag': autonomousFlag,
  'completion-marker': completionMarker,
  'dependency-exists': dependencyExists,
  'no-automatable-human-action': noAutomatableHumanAction,
  'no-dependency-cycle': noDependencyCycle
}

export type RuleId = keyof typeof rules
