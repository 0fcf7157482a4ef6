import autoSelectOption from './auto-select-option.js'
import autonomousFlag from './autonomous-flag.js'
import checkpointGate from './checkpoint-gate.js'
import completionMarker from './completion-marker.js'
import decisionOptions from './decision-options.js'
import dependencyExists from './dependency-exists.js'
import frontmatterSchema from './frontmatter-schema.js'
import noAutomatableHumanAction from './no-automatable-human-action.js'
import noDependencyCycle from './no-dependency-cycle.js'
import noDeprecatedKeys from './no-deprecated-keys.js'
import planFilename from './plan-filename.js'
import taskElements from './task-elements.js'
import taskMarkup from './task-markup.js'
import taskType from './task-type.js'
import uniqueIds from './unique-ids.js'

/** Every rule, by id. */
export const rules = {
  'auto-select-option': autoSelectOption,
  'autonomous-flag': autonomousFlag,
  'checkpoint-gate': checkpointGate,
  'completion-marker': completionMarker,
  'decision-options': decisionOptions,
  'dependency-exists': dependencyExists,
  'frontmatter-schema': frontmatterSchema,
  'no-automatable-human-action': noAutomatableHumanAction,
  'no-dependency-cycle': noDependencyCycle,
  'no-deprecated-keys': noDeprecatedKeys,
  'plan-filename': planFilename,
  'task-elements': taskElements,
  'task-markup': taskMarkup,
  'task-type': taskType,
  'unique-ids': uniqueIds
}

export type RuleId = keyof typeof rules
