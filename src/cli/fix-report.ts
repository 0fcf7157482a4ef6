import path from 'node:path'
import {createTwoFilesPatch, FILE_HEADERS_ONLY} from 'diff'
import type {FixRun} from '../fix.js'
import type {CliIo} from './main.js'

/**
 * Tells what fixing did: a unified diff per file in a dry run (stylish format
 * only: JSON carries `output` instead, SARIF and GitHub stay machine-readable),
 * a summary line on stderr, and every file that could not be written.
 * Returns how many writes failed.
 */
export function reportFixes(run: FixRun, {dryRun, io, format}: {dryRun: boolean; io: CliIo; format: string}): number {
  const done = run.fixed.filter((entry) => dryRun || entry.written)
  const edits = done.reduce((sum, entry) => sum + entry.edits, 0)
  if (dryRun && format === 'stylish') {
    for (const entry of run.fixed) {
      const name = path.relative(io.cwd, entry.path) || entry.path
      io.stdout(createTwoFilesPatch(`a/${name}`, `b/${name}`, entry.before, entry.after, undefined, undefined, {headerOptions: FILE_HEADERS_ONLY}))
    }
  }
  const failed = run.fixed.filter((entry) => entry.writeError !== undefined)
  for (const entry of failed) {
    io.stderr(`planlint: could not write ${path.relative(io.cwd, entry.path)} (${entry.writeError}); the file is unchanged\n`)
  }
  const files = done.length
  if (edits > 0) {
    io.stderr(`planlint: ${dryRun ? 'would apply' : 'applied'} ${edits} fix${edits === 1 ? '' : 'es'} to ${files} file${files === 1 ? '' : 's'}\n`)
  }
  return failed.length
}
