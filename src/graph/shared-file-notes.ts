import path from 'node:path'
import {normalizePath} from '../plan.js'

/**
 * What an author writes to say a file is safe for two plans of a wave to edit:
 * a "Shared-file note", that it is append-only or that both plans append to it,
 * or that they edit different (disjoint, distinct) sections of it.
 */
const safeToShare =
  /shared[- ]file note|\bappend-only\b|\bboth (?:plans )?(?:only )?append|\b(?:different|separate|distinct|disjoint) (?:sections?|regions?|rows?|entries)\b|\bdisjoint\b/i

/** That the note is about plans sharing the file, not about the file alone (an append-only table, a section to append). */
const aboutPlans = /\bplans?\b|\bparallel\b|\bwaves?\b|shared[- ]file/i

/** A line that starts a new block of prose: a list item, a table row, a heading. */
const blockStart = /^[ \t]*(?:[-*+][ \t]|\d{1,3}[.)][ \t]|\||#)/

/** The longest block read for a note: a note is a sentence or a table row, not a section. */
const maxBlockLength = 2000

/**
 * The paths of `files` (the plan's `files_modified` and `files_deleted`, as
 * written) that a note in the plan's body says are safe to share with
 * another plan of its wave: a paragraph, list item or table row that names
 * the file (by path or file name), says it is append-only or edited in
 * different sections (`safeToShare`), and speaks of plans. Normalised as
 * `normalizePath` does. One pass over the body's lines, when the body has
 * the wording at all.
 */
export function sharedFileNotes(text: string, bodyStart: number, files: readonly string[]): string[] {
  if (files.length === 0) return []
  const body = text.slice(bodyStart)
  // Every note has this wording, and most plans have none: one pass over the body spares them the block scan.
  if (!safeToShare.test(body)) return []
  const noted = new Set<string>()
  const read = (block: string) => {
    const note = block.slice(0, maxBlockLength)
    if (!safeToShare.test(note) || !aboutPlans.test(note)) return
    for (const file of files) {
      const normal = normalizePath(file)
      // By file name only a file's (`routes.ts`): a folder's name (`ui` of `src/ui/`) is a common word.
      const name = path.posix.basename(normal)
      if (note.includes(normal) || (name.includes('.') && note.includes(name))) noted.add(normal)
    }
  }
  let block = ''
  for (const line of body.split('\n')) {
    if (line.trim() === '' || blockStart.test(line)) {
      read(block)
      block = ''
    }
    if (block.length < maxBlockLength) block += line + '\n'
  }
  read(block)
  return [...noted]
}
