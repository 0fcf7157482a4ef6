import fs from 'node:fs'
import path from 'node:path'

/**
 * Test records: what a slow check passed, kept in the repository
 * (test/fixtures/) under the version of what the check depends on, so that a
 * fresh clone checks again only what changed (the ReDoS test's patterns, the
 * corpus scan's repositories). Each caller says which version its record is for.
 */

/** A test record as it was written, or `undefined` when there is none. */
export function readRecord<Record>(file: string): Record | undefined {
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Record) : undefined
}

/** Writes a test record back when it changed, never in CI: it is committed with the change that changed it. */
export function writeRecord(file: string, record: object): void {
  const text = `${JSON.stringify(record, null, 2)}\n`
  if (process.env.CI || (fs.existsSync(file) && fs.readFileSync(file, 'utf8') === text)) return
  fs.mkdirSync(path.dirname(file), {recursive: true})
  fs.writeFileSync(file, text)
}
