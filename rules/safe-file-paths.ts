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

/**
 * The prefix an absolute path shares with the others of its file: up to and
 * including the repository's folder when the path runs through it (then it is
 * the repository root, and stripping it leaves the path the plan meant), else
 * the home folder (`/Users/dana/`), else the folder of the path.
 */
function prefixOf(value: string, repository: string | undefined): {prefix: string; root: boolean} {
  const segments = value.split(/(?<=[\\/])/)
  if (repository) {
    const at = segments.findIndex((segment, index) => index > 0 && segment.replace(/[\\/]$/, '') === repository && index < segments.length - 1)
    if (at !== -1) return {prefix: segments.slice(0, at + 1).join(''), root: true}
  }
  const home = /^(?:\/(?:Users|home)\/[^/]+\/|~\/|[A-Za-z]:[\\/]Users[\\/][^\\/]+[\\/])/.exec(value)?.[0]
  return {prefix: home ?? segments.slice(0, -1).join(''), root: false}
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
  check({document, report}) {
    const entries: Array<PathEntry & {where: string}> = [
      ...filesModified(document).map((entry) => ({...entry, where: '`files_modified`'})),
      ...taskPaths(document, 'files').map((entry) => ({...entry, where: '`<files>`'})),
      ...taskPaths(document, 'read_first').map((entry) => ({...entry, where: '`<read_first>`'}))
    ]
    const repository = repositoryName(document.path)
    const byPrefix = new Map<string, {root: boolean; entries: typeof entries}>()
    for (const entry of entries) {
      const reason = escapes(entry.path)
      if (reason === 'climbs') {
        report({
          message: `${entry.where} path \`${entry.path}\` climbs out with \`..\`: name files relative to the repository root, without \`..\``,
          range: entry.range
        })
      } else if (reason === 'absolute') {
        const {prefix, root} = prefixOf(entry.path, repository)
        const group = byPrefix.get(prefix) ?? {root, entries: []}
        group.entries.push(entry)
        byPrefix.set(prefix, group)
      }
    }
    for (const [prefix, group] of byPrefix) {
      const [first, ...others] = group.entries.sort((a, b) => a.range[0] - b.range[0])
      const more = others.length > 0 ? `, and ${others.length} more path${others.length > 1 ? 's' : ''} in this plan start${others.length > 1 ? '' : 's'} with \`${prefix}\`` : ''
      if (!group.root) {
        report({
          message: `${first.where} path \`${first.path}\` is absolute${more}: name files relative to the repository root`,
          range: first.range
        })
        continue
      }
      // One edit from the first path to the last, which strips the root from each and leaves the text between them as it is.
      const end = Math.max(...group.entries.map((entry) => entry.range[1]))
      const parts: string[] = []
      let at = first.range[0]
      for (const entry of group.entries) {
        if (entry.range[0] < at) continue
        parts.push(document.text.slice(at, entry.range[0]), document.text.slice(entry.range[0], entry.range[1]).replace(prefix, ''))
        at = entry.range[1]
      }
      parts.push(document.text.slice(at, end))
      const fix: Edit = {range: [first.range[0], end], text: parts.join('')}
      report({
        message: `${first.where} path \`${first.path}\` is absolute${more}: \`${prefix}\` is the repository root (\`${path.basename(prefix)}\` holds \`.planning\`), so name the paths without it`,
        range: first.range,
        fix
      })
    }
  }
})
