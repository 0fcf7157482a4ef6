import fs from 'node:fs'
import path from 'node:path'

/**
 * The workflow's own settings, `.planning/config.json` of the tree being
 * linted. planlint reads it, never lints it; a missing or broken file means
 * the workflow's defaults.
 */
export interface PlanningConfig {
  /** Where the file is, or where it would be. */
  path: string
  status: 'found' | 'missing' | 'broken'
  /** Why a broken file could not be read (the JSON error). */
  problem?: string
  /** The parsed object (empty when missing or broken). */
  data: Record<string, unknown>
}

/** The workflow's documented defaults for the keys planlint reads. */
const configDefaults = {
  'workflow.human_verify_mode': 'end-of-phase'
} as const

export type ConfigKey = keyof typeof configDefaults

/** The values the workflow accepts for each key; another value (of another type, or a typo) is reported and read as the default. */
const configChoices: Record<ConfigKey, readonly string[]> = {
  'workflow.human_verify_mode': ['end-of-phase', 'mid-flight']
}

const isValid = (key: ConfigKey, value: unknown) => typeof value === 'string' && configChoices[key].includes(value)

/** The value written at a dotted key, `undefined` when it is not there. */
function written(config: PlanningConfig, key: ConfigKey): unknown {
  let value: unknown = config.data
  for (const part of key.split('.')) {
    value = value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>)[part] : undefined
  }
  return value
}

/** A key's value, or its documented default when the key or the file is absent, or the value is not one the workflow accepts. */
export function configValue(config: PlanningConfig, key: ConfigKey): unknown {
  const value = written(config, key)
  return isValid(key, value) ? value : configDefaults[key]
}

/** Whether a key is written in the file with a value the workflow accepts (not just defaulted). */
export function configHas(config: PlanningConfig, key: ConfigKey): boolean {
  return isValid(key, written(config, key))
}

/** `<root>/config.json`; a root that is not itself `.planning` (a folder given on the command line) may hold one. */
function configPathOf(root: string): string {
  const direct = path.join(root, 'config.json')
  if (path.basename(root) === '.planning') return direct
  const nested = path.join(root, '.planning', 'config.json')
  return fs.existsSync(nested) ? nested : direct
}

/** Reads the config of the planning tree at `root` (`PlanningConfigs` keeps it for the run). */
function readPlanningConfig(root: string): PlanningConfig {
  const filePath = configPathOf(root)
  let source: string
  try {
    source = fs.readFileSync(filePath, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {path: filePath, status: 'missing', data: {}}
    return {path: filePath, status: 'broken', problem: (error as Error).message, data: {}}
  }
  try {
    const data: unknown = JSON.parse(source)
    if (data && typeof data === 'object' && !Array.isArray(data)) return {path: filePath, status: 'found', data: data as Record<string, unknown>}
    return {path: filePath, status: 'broken', problem: 'it is not a JSON object', data: {}}
  } catch (error) {
    return {path: filePath, status: 'broken', problem: (error instanceof Error ? error.message : String(error)).replace(/ \(line \d+ column \d+\)$/, ''), data: {}}
  }
}

/** The planning configs of a run's trees, by tree root: each read once, until `forget` says it changed. */
export class PlanningConfigs {
  private readonly byRoot = new Map<string, PlanningConfig>()

  of(root: string): PlanningConfig {
    let config = this.byRoot.get(root)
    if (!config) this.byRoot.set(root, (config = readPlanningConfig(root)))
    return config
  }

  /** Forgets the configs of the roots `changed` picks: they are read again on next use. */
  forget(changed: (root: string) => boolean): void {
    for (const root of this.byRoot.keys()) {
      if (changed(root)) this.byRoot.delete(root)
    }
  }
}

/**
 * The notice about a missing or broken config file, for every file whose
 * rule needed the config (`undefined` when the file was found). Each file's
 * messages depend only on that file and its tree, never on which files were
 * linted before it.
 */
export function configNotice(config: PlanningConfig, needed: string, key?: ConfigKey): string | undefined {
  const where = `\`${path.basename(path.dirname(config.path))}/config.json\``
  if (config.status === 'found') {
    const value = key === undefined ? undefined : written(config, key)
    if (key === undefined || value === undefined || isValid(key, value)) return undefined
    const choices = configChoices[key].map((choice) => `\`${choice}\``).join(' or ')
    return `\`${key}\` in ${where} is \`${JSON.stringify(value)}\`, which the workflow does not accept (${choices}): ${needed}`
  }
  return config.status === 'missing'
    ? `No ${where} in this planning tree: ${needed}`
    : `${where} cannot be read (${config.problem}): ${needed}`
}
