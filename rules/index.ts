import autoSelectOption from './auto-select-option.js'
import autonomousFlag from './autonomous-flag.js'
import checkpointDensity from './checkpoint-density.js'
import checkpointGate from './checkpoint-gate.js'
import completionMarker from './completion-marker.js'
import criteriaTraps from './criteria-traps.js'
import decisionOptions from './decision-options.js'
import dependencyExists from './dependency-exists.js'
import filesModified from './files-modified.js'
import frontmatterSchema from './frontmatter-schema.js'
import humanVerifyMode from './human-verify-mode.js'
import maxTasks from './max-tasks.js'
import mustHaves from './must-haves.js'
import negativeGateConflict from './negative-gate-conflict.js'
import negativeGrepEcho from './negative-grep-echo.js'
import noAutomatableHumanAction from './no-automatable-human-action.js'
import noCliInHumanVerify from './no-cli-in-human-verify.js'
import noDependencyCycle from './no-dependency-cycle.js'
import noDeprecatedKeys from './no-deprecated-keys.js'
import oneWayDecision from './one-way-decision.js'
import pbrPlanFormat from './pbr-plan-format.js'
import planFilename from './plan-filename.js'
import readFirstPaths from './read-first-paths.js'
import requirementsCoverage from './requirements-coverage.js'
import safeFilePaths from './safe-file-paths.js'
import specificVerification from './specific-verification.js'
import taskElements from './task-elements.js'
import taskMarkup from './task-markup.js'
import taskParts from './task-parts.js'
import taskType from './task-type.js'
import uniqueIds from './unique-ids.js'
import uniquePlanIds from './unique-plan-ids.js'
import waveFileOverlap from './wave-file-overlap.js'
import waveOrder from './wave-order.js'

/** Every rule, by id. */
export const rules = {
  'auto-select-option': autoSelectOption,
  'autonomous-flag': autonomousFlag,
  'checkpoint-density': checkpointDensity,
  'checkpoint-gate': checkpointGate,
  'completion-marker': completionMarker,
  'criteria-traps': criteriaTraps,
  'decision-options': decisionOptions,
  'dependency-exists': dependencyExists,
  'files-modified': filesModified,
  'frontmatter-schema': frontmatterSchema,
  'human-verify-mode': humanVerifyMode,
  'max-tasks': maxTasks,
  'must-haves': mustHaves,
  'negative-gate-conflict': negativeGateConflict,
  'negative-grep-echo': negativeGrepEcho,
  'no-automatable-human-action': noAutomatableHumanAction,
  'no-cli-in-human-verify': noCliInHumanVerify,
  'no-dependency-cycle': noDependencyCycle,
  'no-deprecated-keys': noDeprecatedKeys,
  'one-way-decision': oneWayDecision,
  'pbr-plan-format': pbrPlanFormat,
  'plan-filename': planFilename,
  'read-first-paths': readFirstPaths,
  'requirements-coverage': requirementsCoverage,
  'safe-file-paths': safeFilePaths,
  'specific-verification': specificVerification,
  'task-elements': taskElements,
  'task-markup': taskMarkup,
  'task-parts': taskParts,
  'task-type': taskType,
  'unique-ids': uniqueIds,
  'unique-plan-ids': uniquePlanIds,
  'wave-file-overlap': waveFileOverlap,
  'wave-order': waveOrder
}

export type RuleId = keyof typeof rules
