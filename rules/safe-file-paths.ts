import fs from 'node:fs'
import path from 'node:path'
import type {Edit} from '../src/rule.js'
import {filesModified, taskPaths, type PathEntry} from '../src/plan.js'
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

/** Where an absolute path points, as far as it shows. */
type Whereabouts = {root: string} | 'elsewhere' | 'unknown'

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
    if (name(segments[index]) === repository) return {root: segments.slice(0, index + 1).join('')}
    if (name(segments[index]) !== '.planning') continue
    // The planning tree sits at the repository root, whatever the checkout's folder is called; a folder it does not have is another tree's.
    const folders = segments.slice(index + 1, -1).map(name)
    return folders.length > 0 && fs.existsSync(path.join(planningRoot, ...folders)) ? {root: segments.slice(0, index).join('')} : 'elsewhere'
  }
  return homeDotFolder.test(value) ? 'elsewhere' : 'unknown'
}

/** A dot folder right under a home folder (`~/.claude/`, `/Users/dana/.config/`, `C:\Users\dana\.codex\`): the machine's or the agent's own files. */
const homeDotFolder = /^(?:~|\/root|\/(?:Users|home)\/[^/]+|[A-Za-z]:[\\/]Users[\\/][^\\/]+)[\\/]\./

/** The folders the paths all start with (`/Users/dana/app/`), or their home folder, or `''`. */
function sharedFolder(values: string[]): string {
  const home = /^(?:\/(?:Users|home)\/[^/]+\/|~\/|[A-Za-z]:[\\/]Users[\\/][^\\/]+[\\/])/
  const split = values.map((value) => value.split(/(?<=[\\/])/).slice(0, -1))
  let length = 0
  while (split.every((segments) => segments[length] !== undefined && segments[length] === split[0][length])) length++
  const common = split[0].slice(0, length).join('')
  const homeFolder = home.exec(values[0])?.[0]
  return common.length > 1 || !homeFolder ? common : homeFolder
}

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
    const absolute: typeof entries = []
    for (const entry of entries) {
      const reason = escapes(entry.path)
      if (reason === 'climbs') {
        report({
          message: `${entry.where} path \`${entry.path}\` climbs out of the repository with \`..\`: from a worktree it names another file, or none; name a file of this repository from its root, and leave another project's files to that project's plans`,
          range: entry.range
        })
      } else if (reason === 'absolute') {
        absolute.push(entry)
      }
    }
    if (absolute.length === 0) return
    absolute.sort((a, b) => a.range[0] - b.range[0])
    const planningRoot = graph().root
    const places = new Map(absolute.map((entry) => [entry, whereabouts(entry.path, repository, planningRoot)]))
    const prefix = absolute.map((entry) => places.get(entry)).find((place) => typeof place === 'object')?.root
    const rooted = prefix === undefined ? [] : absolute.filter((entry) => entry.path.startsWith(prefix))
    // A file of another project, or the agent's own: it cannot be named from this repository's root, and whether the plan may touch it is its author's call.
    const others = absolute.filter((entry) => !rooted.includes(entry) && places.get(entry) !== 'elsewhere')
    const more = (count: number, prefix: string) =>
      count === 0 ? '' : prefix ? `, and ${count} more path${count > 1 ? 's' : ''} in this plan start${count > 1 ? '' : 's'} with \`${prefix}\`` : `, and ${count} more path${count > 1 ? 's' : ''} in this plan ${count > 1 ? 'are' : 'is'} absolute too`
    if (others.length > 0) {
      const [first] = others
      report({
        message: `${first.where} path \`${first.path}\` is absolute${more(others.length - 1, sharedFolder(others.map((entry) => entry.path)))}: name a file of this repository relative to its root (a worktree or another checkout of it has other absolute paths)`,
        range: first.range
      })
    }
    if (prefix !== undefined && rooted.length > 0) {
      const [first, ...rest] = rooted
      // One edit from the first path to the last, which strips the root from each and leaves the text between them as it is.
      const end = Math.max(...rooted.map((entry) => entry.range[1]))
      const parts: string[] = []
      let at = first.range[0]
      for (const entry of rooted) {
        if (entry.range[0] < at) continue
        parts.push(document.text.slice(at, entry.range[0]), document.text.slice(entry.range[0], entry.range[1]).replace(prefix, ''))
        at = entry.range[1]
      }
      parts.push(document.text.slice(at, end))
      const fix: Edit = {range: [first.range[0], end], text: parts.join('')}
      report({
        message: `${first.where} path \`${first.path}\` is absolute${more(rest.length, prefix)}: \`${prefix}\` is the repository root (\`${prefix.split(/[\\/]/).filter(Boolean).at(-1)}\` holds \`.planning\`), so name the paths without it`,
        range: first.range,
        fix
      })
    }
  }
})
