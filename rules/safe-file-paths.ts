import fs from 'node:fs'
import path from 'node:path'
import {joinedEdit} from '../src/edits.js'
import {sliceOf} from '../src/model/document.js'
import {filesModified, normalizePath, taskPaths, type PathEntry} from '../src/plan.js'
import {defineRule} from '../src/rule.js'

/** Top folders of a machine's file system: a path under one of them is a file, not a URL route. */
const systemRoots = new Set(['Users', 'home', 'root', 'tmp', 'var', 'etc', 'opt', 'usr', 'srv', 'mnt', 'private', 'Volumes', 'Library', 'Applications', 'workspace', 'workspaces'])

/** Why a path leaves the repository, or `undefined` when it stays inside. */
function escapes(value: string): 'absolute' | 'climbs' | undefined {
  if (/^(~|[A-Za-z]:[\\/]|\\\\)/.test(value)) return 'absolute'
  if (value.startsWith('/')) {
    // `/api/search`, `/dashboard/settings`: a route the plan names, not a file (no extension, not under a system folder).
    const segments = value.split('/').filter(Boolean)
    const last = segments.at(-1) ?? ''
    if (!systemRoots.has(segments[0] ?? '') && !/\.[A-Za-z0-9]{1,10}$/.test(last)) return undefined
    return 'absolute'
  }
  if (value.split(/[\\/]/).includes('..')) return 'climbs'
  return undefined
}

/** The repository's folder name: the folder that holds `.planning` (`/x/shop/.planning/phases/…` → `shop`). */
function repositoryName(filePath: string | undefined): string | undefined {
  const parts = filePath?.split(/[\\/]/) ?? []
  const planning = parts.lastIndexOf('.planning')
  return planning > 0 ? parts[planning - 1] : undefined
}

/** Where an absolute path points, as far as it shows: into this repository (with the root it starts with and how that is known), elsewhere, or unknown. */
type Whereabouts = {root: string; why: string} | 'elsewhere' | 'unknown'

/**
 * Where an absolute path points: into this repository, with the root it
 * starts with (up to and including the repository's folder when the path
 * runs through it, or up to a `.planning` whose folders this planning tree
 * has), so stripping the root leaves the path the plan meant; `elsewhere`
 * for a file that is not this repository's by its path (another project's
 * `.planning`, a dot folder of the home folder, such as the agent's
 * `~/.claude`); else `unknown`.
 */
function whereabouts(value: string, repository: string | undefined, planningRoot: string): Whereabouts {
  const segments = value.split(/(?<=[\\/])/)
  const name = (segment: string) => segment.replace(/[\\/]$/, '')
  for (let index = 1; index < segments.length - 1; index++) {
    // In any case: a checkout of `BLADE` is often `blade` on a case-insensitive disk.
    if (repository !== undefined && name(segments[index]).toLowerCase() === repository.toLowerCase()) return {root: segments.slice(0, index + 1).join(''), why: `\`${repository}\` holds \`.planning\``}
    if (name(segments[index]) !== '.planning') continue
    // The planning tree sits at the repository root, whatever the checkout's folder is called; a folder it does not have is another tree's.
    const folders = segments.slice(index + 1, -1).map(name)
    const root = segments.slice(0, index).join('')
    return folders.length > 0 && fs.existsSync(path.join(planningRoot, ...folders)) ? {root, why: `\`${name(segments[index - 1])}\` holds \`.planning\``} : 'elsewhere'
  }
  return homeDotFolder.test(value) ? 'elsewhere' : 'unknown'
}

/**
 * The root an absolute path starts with when what follows it is a file of
 * this repository: one that this plan names by its relative path, or one
 * that exists under the folder holding `.planning`. The tail must hold a
 * folder and a file (`src/app.ts`), so that a lone `README.md` of another
 * project does not pass for this one's.
 */
function rootByTail(value: string, named: Set<string>, repositoryRoot: string | undefined): Whereabouts {
  const segments = value.split(/(?<=[\\/])/)
  for (let index = 1; index < segments.length - 1; index++) {
    const tail = normalizePath(segments.slice(index).join('')).replace(/\/$/, '')
    if (named.has(tail)) return {root: segments.slice(0, index).join(''), why: `this plan names \`${tail}\` too`}
    if (repositoryRoot && fs.existsSync(path.join(repositoryRoot, tail))) return {root: segments.slice(0, index).join(''), why: `\`${tail}\` is a file of this repository`}
  }
  return 'unknown'
}

/** A dot folder right under a home folder (`~/.claude/`, `/Users/dana/.config/`, `C:\\Users\\dana\\.codex\\`): the machine's or the agent's own files. */
const homeDotFolder = /^(?:~|\/root|\/(?:Users|home)\/[^/]+|[A-Za-z]:[\\/]Users[\\/][^\\/]+)[\\/]\./

/**
 * The paths a plan names are relative to the repository and stay inside it:
 * an executor writes what `<files>` and `files_modified` say, and an absolute
 * or `..` path edits files of another project (or of the machine). One
 * absolute prefix is one cause: it is reported once per file.
 */
export default defineRule({
  id: 'safe-file-paths',
  description: '`<files>`, `<read_first>` and `files_modified` paths are relative and stay inside the repository.',
  severity: 'warning',
  kinds: ['plan'],
  fixable: 'fix',
  defaultOptions: {},
  check({document, graph, report}) {
    const entries: Array<PathEntry & {where: string}> = [
      ...filesModified(document).map((entry) => ({...entry, where: '`files_modified`'})),
      ...taskPaths(document, 'files').map((entry) => ({...entry, where: '`<files>`'})),
      ...taskPaths(document, 'read_first').map((entry) => ({...entry, where: '`<read_first>`'}))
    ]
    const repository = repositoryName(document.path)
    const climbing = entries.filter((entry) => escapes(entry.path) === 'climbs').sort((a, b) => a.range[0] - b.range[0])
    if (climbing.length > 0) {
      const [first] = climbing
      const more = climbing.length > 1 ? `, and ${climbing.length - 1} more path${climbing.length > 2 ? 's' : ''} in this plan climb${climbing.length > 2 ? '' : 's'} out too` : ''
      report({
        message: `${first.where} path \`${first.path}\` climbs out of the repository with \`..\`${more}: from a worktree it names another file, or none; name a file of this repository from its root, and leave another project's files to that project's plans`,
        range: first.range
      })
    }
    const absolute = entries.filter((entry) => escapes(entry.path) === 'absolute').sort((a, b) => a.range[0] - b.range[0])
    if (absolute.length === 0) return
    const planningRoot = graph().root
    const repositoryRoot = path.basename(planningRoot) === '.planning' ? path.dirname(planningRoot) : undefined
    const named = new Set(entries.filter((entry) => escapes(entry.path) === undefined).map((entry) => normalizePath(entry.path).replace(/\/$/, '')))
    // A path is reported only when it is recognisably this repository's: the rest (a clone kept outside on purpose, a sibling project read as a template) cannot be named from its root.
    const roots = new Map<string, string>()
    const rootOf = (entry: PathEntry) => [...roots.keys()].find((root) => entry.path.startsWith(root))
    for (const entry of absolute) {
      if (rootOf(entry) !== undefined) continue
      let place = whereabouts(entry.path, repository, planningRoot)
      if (place === 'unknown') place = rootByTail(entry.path, named, repositoryRoot)
      if (typeof place === 'object') roots.set(place.root, place.why)
    }
    for (const [prefix, why] of roots) {
      const rooted = absolute.filter((entry) => rootOf(entry) === prefix)
      const [first, ...rest] = rooted
      const more = rest.length === 0 ? '' : `, and ${rest.length} more path${rest.length > 1 ? 's' : ''} in this plan start${rest.length > 1 ? '' : 's'} with \`${prefix}\``
      // One edit that strips the root from each path.
      const fix = joinedEdit(document, rooted.map((entry) => ({range: entry.range, text: sliceOf(document, entry.range).replace(prefix, '')})))
      report({
        message: `${first.where} path \`${first.path}\` is absolute${more}: \`${prefix}\` is the repository root (${why}), so name the paths without it`,
        range: first.range,
        fix
      })
    }
  }
})
