import {isMap, isScalar, isSeq, type Node as YamlNode} from 'yaml'
import {onlyNearMiss} from './distance.js'
import {sliceOf, type PlanDocument} from './model/document.js'
import {frontmatterItems, type FrontmatterEntry} from './model/frontmatter.js'
import type {Range} from './model/text.js'
import {codeList, isGlob} from './plan.js'
import type {Finding} from './rule.js'

/**
 * The optional keys of a current GSD plan's frontmatter (GSD 1.14's
 * `templates/phase-prompt.md` and `agents/gsd-planner.md`), each checked
 * against the shape the workflow reads. `frontmatter-schema` runs them.
 */

type Report = (finding: Finding) => void

const rangeOf = (document: PlanDocument, node: YamlNode | null | undefined, fallback: Range): Range => {
  const range = node?.range
  if (!range || !document.frontmatter) return fallback
  const start = document.frontmatter.contentRange[0] + range[0]
  // A block node's range runs on over the line break and indentation after it.
  const end = start + sliceOf(document, [start, document.frontmatter.contentRange[0] + range[1]]).trimEnd().length
  return [start, end]
}

/** The items of a list key, each with its range: none for an empty value, and none (with `notAList` reported) for a value that is no list. */
function listItems(document: PlanDocument, entry: FrontmatterEntry, report: Report, notAList: string): Array<{item: unknown; range: Range}> {
  if (entry.value === null) return []
  if (!isSeq(entry.node)) {
    report({message: notAList, range: entry.valueRange})
    return []
  }
  return entry.node.items.map((item) => ({item, range: rangeOf(document, item as YamlNode, entry.valueRange)}))
}

/** `gap_closure`: `execute-phase --gaps-only` selects plans whose value is exactly `true`. */
function checkGapClosure(document: PlanDocument, entry: FrontmatterEntry, report: Report): void {
  const written = sliceOf(document, entry.valueRange).trim()
  if (written === 'true' || written === 'false') return
  const unquoted = written.replace(/^(["'])(.*)\1$/s, '$2').trim().toLowerCase()
  const meantTrue = entry.value === true || ['true', 'yes', 'on', 'y', '1'].includes(unquoted)
  report({
    message: meantTrue
      ? `\`gap_closure\` is \`${written}\`; write \`true\`: \`--gaps-only\` runs only the plans whose \`gap_closure\` is exactly \`true\`, and skips this one`
      : `\`gap_closure\` is \`${written || 'empty'}\`; it is \`true\` on a gap-closure plan (and left out otherwise)`,
    range: entry.valueRange,
    ...(meantTrue ? {fix: {range: entry.valueRange, text: 'true'}} : {})
  })
}

/** `files_deleted`: worktree cleanup merges a branch that deletes a path only when the path is declared exactly. */
function checkFilesDeleted(document: PlanDocument, entry: FrontmatterEntry, report: Report): void {
  if (entry.value === null) return
  if (!Array.isArray(entry.value)) {
    report({message: '`files_deleted` must be a list of paths (`files_deleted: [src/old.ts]`)', range: entry.valueRange})
    return
  }
  for (const item of frontmatterItems(document.frontmatter!, entry.node)) {
    const value = typeof item.value === 'string' ? item.value.trim() : ''
    if (value === '') continue
    const kind = isGlob(value) ? 'a glob' : value.endsWith('/') ? 'a folder' : undefined
    if (!kind) continue
    report({
      message: `\`files_deleted\` entry \`${item.text}\` is ${kind}: worktree cleanup merges a deletion only of a path declared exactly, so list each deleted file`,
      range: item.range
    })
  }
}

/** `coupling_justified`: one `"plan-id: reason"` string per coupled same-wave plan. */
function checkCouplingJustified(document: PlanDocument, entry: FrontmatterEntry, report: Report): void {
  const notAList = '`coupling_justified` must be a list of `"plan-id: reason"` strings (`coupling_justified: ["03-02: both append config keys"]`)'
  for (const {item, range} of listItems(document, entry, report, notAList)) {
    // `- 03-02: reason` unquoted is a one-key mapping in YAML; it says the same.
    if (isMap(item) && item.items.length === 1 && isScalar(item.items[0].key) && isScalar(item.items[0].value) && String(item.items[0].value.value ?? '').trim() !== '') continue
    const text = isScalar(item) ? String(item.value ?? '') : ''
    const colon = text.indexOf(':')
    if (colon > 0 && text.slice(colon + 1).trim() !== '' && !/\s/.test(text.slice(0, colon).trim())) continue
    report({
      message: `\`coupling_justified\` entry \`${sliceOf(document, range)}\` is not \`"plan-id: reason"\`: name the coupled plan and say why the coupling is safe in either order`,
      range
    })
  }
}

const userSetupKeys = ['service', 'why', 'env_vars', 'dashboard_config', 'local_dev']
const userSetupItemKeys: Record<string, string[]> = {env_vars: ['name', 'source'], dashboard_config: ['task', 'location', 'details']}

/** `user_setup`: services a person must set up, in the schema of GSD's `templates/user-setup.md`. */
function checkUserSetup(document: PlanDocument, entry: FrontmatterEntry, report: Report): void {
  const notAList = '`user_setup` must be a list of services (`- service: stripe`, with `why`, `env_vars`, `dashboard_config`, `local_dev`)'
  for (const {item, range} of listItems(document, entry, report, notAList)) {
    if (!isMap(item)) {
      report({message: 'A `user_setup` item is a mapping that starts with `service:`; GSD builds the USER-SETUP checklist from its keys', range, severity: 'warning'})
      continue
    }
    const keys = item.items.filter((pair) => isScalar(pair.key)).map((pair) => ({name: String((pair.key as {value: unknown}).value), pair}))
    if (!keys.some((key) => key.name === 'service')) {
      report({message: 'This `user_setup` item has no `service`: name the external service a person must set up', range, severity: 'warning'})
    }
    for (const key of keys) {
      const keyRange = rangeOf(document, key.pair.key as YamlNode, range)
      if (!userSetupKeys.includes(key.name)) {
        // The executing agent reads the YAML as written into USER-SETUP.md: a key of the author's own (`cli_commands`) says more, and only a slip of a template key is lost.
        const meant = onlyNearMiss(key.name, userSetupKeys)
        if (meant) report({message: `\`user_setup\` has no key \`${key.name}\`; did you mean \`${meant}\`?`, range: keyRange, severity: 'warning', fix: {range: keyRange, text: meant}})
        continue
      }
      const itemKeys = userSetupItemKeys[key.name]
      const value = key.pair.value as YamlNode | null
      if (key.name === 'why' || key.name === 'service') continue
      if (!isSeq(value)) {
        report({message: `\`${key.name}\` is a list${itemKeys ? ` of ${codeList(itemKeys)} mappings` : ' of commands'}`, range: rangeOf(document, value, keyRange), severity: 'warning'})
        continue
      }
      if (key.name !== 'env_vars') continue
      for (const variable of value.items) {
        if (isMap(variable) && variable.has('name')) continue
        report({message: 'An `env_vars` item names its variable (`- name: API_KEY`) and where to find it (`source:`)', range: rangeOf(document, variable as YamlNode, keyRange), severity: 'warning'})
      }
    }
  }
}

const confidences = ['low', 'med', 'high']

/** `estimate`: the planner's projected cost, `{tokens, raw_tokens, tasks, confidence}`. */
function checkEstimate(document: PlanDocument, entry: FrontmatterEntry, report: Report): void {
  if (entry.value === null) return
  if (!isMap(entry.node)) {
    report({message: '`estimate` is a mapping (`tokens`, `raw_tokens`, `tasks`, `confidence`); the plan checker reads `estimate.tokens`', range: entry.valueRange, severity: 'warning'})
    return
  }
  for (const pair of entry.node.items) {
    if (!isScalar(pair.key)) continue
    const name = String(pair.key.value)
    const value = pair.value as YamlNode | null
    const range = rangeOf(document, value, rangeOf(document, pair.key as YamlNode, entry.valueRange))
    const scalar = isScalar(value) ? value.value : undefined
    if (['tokens', 'raw_tokens', 'tasks'].includes(name) && !(typeof scalar === 'number' && Number.isInteger(scalar) && scalar >= 0)) {
      report({message: `\`estimate.${name}\` is a whole number (the plan checker compares \`estimate.tokens\` with the smart-zone budget)`, range, severity: 'warning'})
    } else if (name === 'confidence' && !confidences.includes(String(scalar))) {
      report({message: `\`estimate.confidence\` is one of ${codeList(confidences)}, derived from the calibration samples`, range, severity: 'warning'})
    }
  }
}

/** `agent_hint`: the name of one specialist executor agent. */
function checkAgentHint(document: PlanDocument, entry: FrontmatterEntry, report: Report): void {
  if (typeof entry.value === 'string' && entry.value.trim() !== '') return
  report({
    message: '`agent_hint` is the name of one executor agent (`agent_hint: gsd-executor-frontend`); anything else falls back to `gsd-executor`',
    range: entry.valueRange,
    severity: 'warning'
  })
}

const checks: Record<string, (document: PlanDocument, entry: FrontmatterEntry, report: Report) => void> = {
  gap_closure: checkGapClosure,
  files_deleted: checkFilesDeleted,
  coupling_justified: checkCouplingJustified,
  user_setup: checkUserSetup,
  estimate: checkEstimate,
  agent_hint: checkAgentHint
}

/** Checks each optional GSD key the plan sets against the shape the workflow reads. */
export function checkOptionalKeys(document: PlanDocument, report: Report): void {
  const entries = document.frontmatter?.entries
  if (!entries) return
  for (const [key, check] of Object.entries(checks)) {
    const entry = entries.get(key)
    if (entry) check(document, entry, report)
  }
}
