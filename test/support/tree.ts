import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {forgetProcessSession} from '../../src/session.js'

export interface TreeFile {
  path: string
  text: string
}

/** Writes files under `root`; returns their full paths. */
export function writeFiles(root: string, files: TreeFile[]): string[] {
  return files.map((file) => {
    const filePath = path.join(root, file.path)
    fs.mkdirSync(path.dirname(filePath), {recursive: true})
    fs.writeFileSync(filePath, file.text)
    return filePath
  })
}

/** Writes files to a fresh temporary folder (forgetting what the process session read before); returns the folder. */
export function writeTree(files: TreeFile[], prefix = 'planlint-test-'): string {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)))
  writeFiles(root, files)
  forgetProcessSession()
  return root
}

export function removeTree(root: string): void {
  fs.rmSync(root, {recursive: true, force: true})
}

/** Every file of a tree, by path relative to `root`. */
export function readTree(root: string): Map<string, string> {
  const files = new Map<string, string>()
  for (const entry of fs.readdirSync(root, {recursive: true, withFileTypes: true})) {
    if (!entry.isFile()) continue
    const filePath = path.join(entry.parentPath, entry.name)
    files.set(path.relative(root, filePath), fs.readFileSync(filePath, 'utf8'))
  }
  return files
}

export interface PlanOptions {
  /** Default: the wave after its dependencies when they are all in wave 1. */
  wave?: number
  /** Default `true`: whether the plan runs without stopping for a person. */
  autonomous?: boolean
  /** `files_modified`, and the `<files>` of the default task. */
  files?: string[]
  /** The plan's tasks; default: one complete auto task on `files`. */
  tasks?: string
}

/**
 * A complete plan, plan `plan` of phase 01-storage: every frontmatter key the
 * workflow requires and tasks with all their children, so that the rules
 * report only what a test breaks on purpose.
 */
export function planWith(plan: string, dependsOn: string[] = [], options: PlanOptions = {}): string {
  const files = options.files ?? [`src/storage/step-${plan}.ts`]
  const task = `<task type="auto">
  <name>Create the bucket</name>
  <files>${files.join(', ')}</files>
  <action>Run the migration.</action>
  <verify>npm test -- storage passes</verify>
  <done>The bucket exists</done>
</task>
`
  return `---
phase: 01-storage
plan: ${plan}
type: execute
wave: ${options.wave ?? (dependsOn.length > 0 ? 2 : 1)}
depends_on: ${JSON.stringify(dependsOn)}
files_modified: ${JSON.stringify(files)}
autonomous: ${options.autonomous ?? true}
must_haves:
  truths:
    - "Uploads are stored in the chosen object store"
  artifacts: []
  key_links: []
---

${options.tasks ?? task}`
}

/** A plan with a misspelt `auto_select` (error, fixable), and `autonomous: true` although it has a checkpoint (error, fixable). */
export const brokenPlan = planWith('01', [], {
  files: [],
  tasks: `<task type="checkpoint:decision" gate="blocking" auto_select="s3-compatable">
  <decision>Select the object store</decision>
  <options>
    <option id="s3-compatible"><name>S3-compatible</name><pros>Durable</pros><cons>One more service</cons></option>
    <option id="local-disk"><name>Local disk</name><pros>No new service</pros><cons>Lost with the VM</cons></option>
  </options>
  <resume-signal>Select: s3-compatible or local-disk</resume-signal>
</task>
`
})

/** A plan no rule objects to. */
export const cleanPlan = planWith('02', ['01-01'])
