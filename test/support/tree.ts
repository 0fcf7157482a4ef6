import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {clearPlanGraphCache} from '../../src/graph/graph.js'

export interface TreeFile {
  path: string
  text: string
}

/** Writes files to a fresh temporary folder (forgetting plan graphs read before); returns the folder. */
export function writeTree(files: TreeFile[], prefix = 'planlint-test-'): string {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)))
  for (const file of files) {
    fs.mkdirSync(path.dirname(path.join(root, file.path)), {recursive: true})
    fs.writeFileSync(path.join(root, file.path), file.text)
  }
  clearPlanGraphCache()
  return root
}

export function removeTree(root: string): void {
  fs.rmSync(root, {recursive: true, force: true})
}

/** A plan with a misspelt `auto_select` (error, fixable) and no `autonomous` key (error, fixable). */
export const brokenPlan = `---
phase: 01-storage
plan: 01
depends_on: []
---

<task type="checkpoint:decision" gate="blocking" auto_select="s3-compatable">
  <decision>Select the object store</decision>
  <options>
    <option id="s3-compatible"><name>S3-compatible</name></option>
    <option id="local-disk"><name>Local disk</name></option>
  </options>
  <resume-signal>Select: s3-compatible or local-disk</resume-signal>
</task>
`

/** A plan no rule objects to. */
export const cleanPlan = `---
phase: 01-storage
plan: 02
depends_on: ["01-01"]
autonomous: true
---

<task type="auto">
  <name>Create the bucket</name>
  <action>Run the migration.</action>
</task>
`

/** The clean plan as plan `plan` of phase 01 with these `depends_on` entries. */
export const planWith = (plan: string, dependsOn: string[]) =>
  cleanPlan.replace('plan: 02', `plan: ${plan}`).replace('depends_on: ["01-01"]', `depends_on: ${JSON.stringify(dependsOn)}`)

/** The built CLI and language server (tests run after \`tsc\`, as \`npm test\` does). */
export const cliBin = fileURLToPath(new URL('../../dist/src/cli/bin.js', import.meta.url))
export const languageServerBin = fileURLToPath(new URL('../../dist/src/lsp/bin.js', import.meta.url))
