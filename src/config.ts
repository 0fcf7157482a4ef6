import fs from 'node:fs'
import path from 'node:path'
import {planningRootOf} from './graph/graph.js'

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

/** The value written at a dotted key, `undefined` when it is not there. */
function written(config: PlanningConfig, key: ConfigKey): unknown {
  let value: unknown = config.data
  for (const part of key.split('.')) {
    value = value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>)[part] : undefined
  }
  return value
}

/** A key's value, or its documented default when the key or the file is absent. */
export function configValue(config: PlanningConfig, key: ConfigKey): unknown {
  return written(config, key) ?? configDefaults[key]
}

/** Whether a key is written in the file (not just defaulted). */
export function configHas(config: PlanningConfig, key: ConfigKey): boolean {
  return written(config, key) !== undefined
}

const revalidateAfterMs = 1000

interface CachedConfig {
  checkedAt: number
  /** `mtimeMs:size` of the file when read, `missing` when absent. */
  stamp: string
  config: PlanningConfig
}

const configs = new Map<string, CachedConfig>()

/** `<root>/config.json`; a root that is not itself `.planning` (a folder given on the command line) may hold one. */
function configPathOf(root: string): string {
  const direct = path.join(root, 'config.json')
  if (path.basename(root) === '.planning') return direct
  const nested = path.join(root, '.planning', 'config.json')
  return fs.existsSync(nested) ? nested : direct
}

function stampOf(filePath: string): string {
  try {
    const stat = fs.statSync(filePath)
    return `${stat.mtimeMs}:${stat.size}`
  } catch {
    return 'missing'
  }
}

function readConfig(filePath: string, stamp: string): PlanningConfig {
  if (stamp === 'missing') return {path: filePath, status: 'missing', data: {}}
  try {
    const data: unknown = JSON.parse(fs.readFileSync(filePath, 'utf8'))
    if (data && typeof data === 'object' && !Array.isArray(data)) return {path: filePath, status: 'found', data: data as Record<string, unknown>}
    return {path: filePath, status: 'broken', problem: 'it is not a JSON object', data: {}}
  } catch (error) {
    return {path: filePath, status: 'broken', problem: (error instanceof Error ? error.message : String(error)).replace(/ \(line \d+ column \d+\)$/, ''), data: {}}
  }
}

/**
 * The config of the planning tree that holds `filePath`, read once and
 * re-checked at most once a second (re-read only when its time or size
 * changed), like the plan graph.
 */
export function planningConfigFor(filePath: string): PlanningConfig {
  const configPath = configPathOf(planningRootOf(filePath))
  const cached = configs.get(configPath)
  const now = Date.now()
  if (cached && now - cached.checkedAt < revalidateAfterMs) return cached.config
  const stamp = stampOf(configPath)
  const config = cached?.stamp === stamp ? cached.config : readConfig(configPath, stamp)
  configs.set(configPath, {checkedAt: now, stamp, config})
  return config
}

/** The file that carries the notice about each config file's problem (see `configNotice`). */
const noticeOwners = new Map<string, string>()

/**
 * The notice about a missing or broken config file, for the one file that
 * carries it: the first file that needed the config in this process, and that
 * same file on later runs (an editor re-linting it keeps the message). Every
 * other file gets `undefined`, so a run over a tree says it once.
 */
export function configNotice(config: PlanningConfig, filePath: string, needed: string): string | undefined {
  if (config.status === 'found') return undefined
  const key = `${config.status}:${config.path}`
  const owner = noticeOwners.get(key) ?? filePath
  noticeOwners.set(key, owner)
  if (owner !== filePath) return undefined
  const where = `\`${path.basename(path.dirname(config.path))}/config.json\``
  return config.status === 'missing'
    ? `No ${where} in this planning tree: ${needed} (reported once per tree)`
    : `${where} cannot be read (${config.problem}): ${needed} (reported once per tree)`
}

/** Forgets every config read and every notice given (tests, and editors that reload). */
export function clearPlanningConfigCache(): void {
  configs.clear()
  noticeOwners.clear()
}
