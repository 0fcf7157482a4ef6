import fs from 'node:fs'
import path from 'node:path'
import {isSummaryFileName} from '../model/file-names.js'

// Which planning tree a file belongs to, and which files a tree has: no parser
// loaded, so that a run whose cache answers can tell that a tree is unchanged.

/** Summaries by name: `*-SUMMARY.md`, `SUMMARY.md`, and the nested layout's `SUMMARY-01.md`. */
function isSummaryLike(fileName: string): boolean {
  return isSummaryFileName(fileName) || /^SUMMARY-\d+[a-z]?(?:-[\w.-]+)?\.md$/i.test(fileName)
}

/** The path of an entry of an absolute, normal folder: `path.join` without the normalising, which shows over thousands of files. */
export const childPath = (folder: string, name: string) => (folder.endsWith(path.sep) ? folder + name : folder + path.sep + name)

/** A file's time and size, as the tree scan and `--cache` compare them. */
export const stampOf = (stats: fs.Stats) => `${stats.mtimeMs}:${stats.size}`

/** One Markdown file of a planning tree: a summary is known by its name alone (see `scanTree`). */
export interface TreeFile {
  path: string
  summary: boolean
}

/** The Markdown files of a planning tree, in the order `scanTree` reads them (folders named `node_modules` or starting with a dot are not entered). */
export function treeMarkdownFiles(root: string): TreeFile[] {
  const files: TreeFile[] = []
  const walk = (directory: string) => {
    let entries: fs.Dirent[]
    try {
      entries = fs.readdirSync(directory, {withFileTypes: true})
    } catch {
      return
    }
    for (const entry of entries) {
      const full = childPath(directory, entry.name)
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && !entry.name.startsWith('.')) walk(full)
      } else if (entry.isFile() && isSummaryLike(entry.name)) files.push({path: full, summary: true})
      else if (entry.isFile() && entry.name.toLowerCase().endsWith('.md')) files.push({path: full, summary: false})
    }
  }
  walk(path.resolve(root))
  return files
}

/**
 * What a run has seen of its trees on disk: each tree's Markdown files
 * listed once, each file stat'ed once. `--cache` looks at a tree before the
 * session scans it; the scan then reads what the look found, not the disk again.
 */
export class TreeDisk {
  private readonly listings = new Map<string, TreeFile[]>()
  private readonly stats = new Map<string, fs.Stats | undefined>()

  files(root: string): TreeFile[] {
    let files = this.listings.get(root)
    if (!files) this.listings.set(root, (files = treeMarkdownFiles(root)))
    return files
  }

  /** A file's stats (`undefined`: it is gone, or cannot be stat'ed). */
  statsOf(filePath: string): fs.Stats | undefined {
    if (!this.stats.has(filePath)) this.stats.set(filePath, statsNow(filePath))
    return this.stats.get(filePath)
  }
}

/** A file's stats as they are now (`undefined`: it is gone, or cannot be stat'ed). */
export function statsNow(filePath: string): fs.Stats | undefined {
  try {
    return fs.statSync(filePath, {throwIfNoEntry: false})
  } catch {
    return undefined
  }
}

/** The planning tree a file belongs to: its nearest `.planning` ancestor, else the deepest of `roots` (folders given on a command line) holding it, else its folder. */
export function planningRootOf(filePath: string, roots: Iterable<string>): string {
  const absolute = path.resolve(filePath)
  for (let directory = path.dirname(absolute); ; directory = path.dirname(directory)) {
    if (path.basename(directory) === '.planning') return directory
    if (path.dirname(directory) === directory) break
  }
  let best: string | undefined
  for (const root of roots) {
    if (absolute.startsWith(root + path.sep) && (!best || root.length > best.length)) best = root
  }
  return best ?? path.dirname(absolute)
}
