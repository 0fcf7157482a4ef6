import fs from 'node:fs'
import {createRequire} from 'node:module'
import path from 'node:path'
import type ignoreModule from 'ignore'
import type {Ignore} from 'ignore'
import type picomatch from 'picomatch'
import {childPath} from '../graph/tree-files.js'

/** The size over which a file is not read or parsed, by default (`--max-file-size`; docs/cli.md). */
export const defaultMaxFileSize = 5 * 1024 * 1024

/** How a given path, glob or found file stands: one to read, a named file `.remarkignore` ignores, or one skipped with a reason. */
export type WalkEntry =
  | {path: string; kind: 'file'}
  | {path: string; kind: 'ignored'}
  | {path: string; kind: 'skipped'; reason: string}

export interface WalkOptions {
  cwd: string
  /** Files, folders and globs, as given on the command line. */
  paths: readonly string[]
  /** Skip named files that a `.remarkignore` ignores instead of listing them as `ignored`. */
  silentlyIgnore?: boolean
  /** The planning tree of a path (`LintSession.planningRootOf`): a file symlink whose target is outside it is skipped. */
  treeOf: (filePath: string) => string
}

/** Extensions of the files found in folders (a named file or a glob's match is read whatever its extension, as remark does). */
const require = createRequire(import.meta.url)

// Both CommonJS, required on first use: most runs name no glob, and most trees have no `.remarkignore` (a one-file run pays for neither).
/** picomatch, for globs. */
export const loadPicomatch = () => require('picomatch') as typeof picomatch
/** `ignore`'s factory: its `module.exports`, whose `default` is the factory. */
const loadIgnore = () => (require('ignore') as typeof ignoreModule).default

const extensions = new Set(['.md', '.markdown'])

export const hasGlob = (value: string) => /[*?[\]{}]/.test(value)

const inside = (folder: string, filePath: string) => filePath === folder || filePath.startsWith(folder + path.sep)

/** What a non-regular file is, for the message that skips it. */
function oddKind(stats: fs.Stats | fs.Dirent): string | undefined {
  if (stats.isFIFO()) return 'a FIFO'
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device'
  if (stats.isSocket()) return 'a socket'
  return undefined
}

/**
 * `.remarkignore` files as remark finds them: the nearest one in a file's
 * folder or above, its patterns (gitignore syntax) relative to its folder.
 * Each folder is looked up once.
 */
export class RemarkIgnore {
  private readonly byFolder = new Map<string, {folder: string; patterns: Ignore} | undefined>()

  ignores(filePath: string, isFolder = false): boolean {
    const found = this.nearest(path.dirname(filePath))
    if (!found) return false
    const relative = path.relative(found.folder, filePath)
    if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return false
    return found.patterns.ignores(relative.split(path.sep).join('/') + (isFolder ? '/' : ''))
  }

  private nearest(folder: string): {folder: string; patterns: Ignore} | undefined {
    if (this.byFolder.has(folder)) return this.byFolder.get(folder)
    let found: {folder: string; patterns: Ignore} | undefined
    let text: string | undefined
    const file = path.join(folder, '.remarkignore')
    try {
      // Looked for with a stat first: in most folders there is none, and a failed read costs an exception.
      if (fs.statSync(file, {throwIfNoEntry: false})) text = fs.readFileSync(file, 'utf8')
    } catch {
      text = undefined
    }
    if (text !== undefined) found = {folder, patterns: loadIgnore()().add(text)}
    else if (path.dirname(folder) !== folder) found = this.nearest(path.dirname(folder))
    this.byFolder.set(folder, found)
    return found
  }
}

/**
 * Where a file symlink leads, when that is inside its planning tree; else why
 * it is skipped. The target is worked out from the link's text first, so a
 * link out of the tree (`passwd-PLAN.md -> /etc/passwd`) is skipped without
 * touching what it points at.
 */
function symlinkTarget(link: string, tree: string): {target: string} | {reason: string} {
  let current = link
  for (let hops = 0; hops < 40; hops++) {
    const target = path.resolve(path.dirname(current), fs.readlinkSync(current))
    if (!inside(tree, target)) return {reason: `a symlink to ${target}, outside its planning tree ${tree}`}
    const stats = fs.lstatSync(target, {throwIfNoEntry: false})
    if (!stats) return {reason: `a symlink to ${target}, which does not exist`}
    if (!stats.isSymbolicLink()) {
      // A folder symlink on the way could still lead out: the real path decides.
      const real = fs.realpathSync(target)
      return inside(tree, real) ? {target: real} : {reason: `a symlink to ${real}, outside its planning tree ${tree}`}
    }
    current = target
  }
  return {reason: 'a symlink that loops'}
}

/**
 * The first folder symlink on the way to a named path, from the working
 * folder down (or from its planning tree, for a path outside the working
 * folder); the folders above are the user's business.
 */
export function folderLinkOn(filePath: string, cwd: string, treeOf: (filePath: string) => string): string | undefined {
  const base = inside(cwd, filePath) ? cwd : treeOf(filePath)
  if (!inside(base, filePath)) return undefined
  let folder = base
  for (const part of path.relative(base, path.dirname(filePath)).split(path.sep).filter(Boolean)) {
    folder = path.join(folder, part)
    if (fs.lstatSync(folder, {throwIfNoEntry: false})?.isSymbolicLink()) return folder
  }
  return undefined
}

/**
 * Finds the files to lint as remark does (given files, folders searched for
 * `.md` and `.markdown` files, globs; `node_modules` and what `.remarkignore`
 * ignores skipped), without following folder symlinks, and lists each file as
 * it is found. A file that is not a regular file (a FIFO, a device, a
 * socket), or a file symlink that leads out of its planning tree, is
 * `skipped` with the reason, never opened.
 */
export function* walk(options: WalkOptions): Generator<WalkEntry> {
  const ignored = new RemarkIgnore()
  const seen = new Set<string>()

  /** A file named on the command line or matched by a glob. */
  function* named(filePath: string, stats: fs.Stats): Generator<WalkEntry> {
    if (ignored.ignores(filePath)) {
      if (!options.silentlyIgnore) yield {path: filePath, kind: 'ignored'}
      return
    }
    yield* file(filePath, stats)
  }

  function* file(filePath: string, stats: fs.Stats | fs.Dirent): Generator<WalkEntry> {
    if (seen.has(filePath)) return
    seen.add(filePath)
    if (stats.isSymbolicLink()) {
      const resolved = symlinkTarget(filePath, options.treeOf(filePath))
      if ('reason' in resolved) return yield {path: filePath, kind: 'skipped', reason: resolved.reason}
      const targetStats = fs.statSync(resolved.target)
      if (targetStats.isDirectory()) return
      stats = targetStats
    }
    const odd = oddKind(stats)
    if (odd) return yield {path: filePath, kind: 'skipped', reason: `${odd}, not a regular file`}
    yield {path: filePath, kind: 'file'}
  }

  /** A folder's files, depth first in name order; folder symlinks are not followed. */
  function* folder(folderPath: string, matches?: (relative: string) => boolean): Generator<WalkEntry> {
    let entries: fs.Dirent[]
    try {
      entries = fs.readdirSync(folderPath, {withFileTypes: true})
    } catch {
      return
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    for (const entry of entries) {
      if (entry.name === 'node_modules') continue
      const entryPath = childPath(folderPath, entry.name)
      if (entry.isDirectory()) {
        // A glob's matches are named files, each checked against the ignore files on its own (as remark does).
        if (!matches && ignored.ignores(entryPath, true)) continue
        // A glob that matches a folder takes all its files, as remark does.
        if (matches && matches(entryPath)) yield* folder(entryPath)
        else yield* folder(entryPath, matches)
        continue
      }
      if (matches ? !matches(entryPath) : !extensions.has(path.extname(entry.name))) continue
      if (matches) {
        // A glob's match is named, as remark's glob results are: an ignored one is listed as such.
        if (entry.isSymbolicLink() || entry.isFile() || oddKind(entry)) yield* named(entryPath, fs.lstatSync(entryPath))
        continue
      }
      if (ignored.ignores(entryPath)) continue
      yield* file(entryPath, entry)
    }
  }

  for (const given of options.paths) {
    if (hasGlob(given)) {
      const picomatch = loadPicomatch()
      const {base} = picomatch.scan(given)
      const absoluteBase = path.resolve(options.cwd, base)
      const matcher = picomatch(given.split(path.sep).join('/'))
      const matches = (filePath: string) => matcher(path.relative(options.cwd, filePath).split(path.sep).join('/'))
      if (fs.lstatSync(absoluteBase, {throwIfNoEntry: false})?.isDirectory()) yield* folder(absoluteBase, matches)
      continue
    }
    const absolute = path.resolve(options.cwd, given)
    const link = folderLinkOn(absolute, options.cwd, options.treeOf)
    if (link) {
      yield {path: absolute, kind: 'skipped', reason: `reached through the folder symlink ${link}, which planlint does not follow`}
      continue
    }
    const stats = fs.lstatSync(absolute)
    // A folder named on the command line is searched even through a symlink; the folders in it are not followed.
    if (stats.isDirectory() || (stats.isSymbolicLink() && fs.statSync(absolute).isDirectory())) {
      if (!ignored.ignores(absolute, true) || absolute === options.cwd) yield* folder(absolute)
    } else {
      yield* named(absolute, stats)
    }
  }
}
