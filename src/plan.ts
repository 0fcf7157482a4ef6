import picomatch from 'picomatch'
import {onlyNearMiss} from './distance.js'
import {sliceOf, type PlanDocument} from './model/document.js'
import {attribute, child, descendants, type Element, type MarkupProblem} from './model/markup.js'
import type {Range} from './model/text.js'
import {frontmatterItems, parseFrontmatter} from './model/frontmatter.js'

/** Helpers the plan rules share: reading a task's type and an element's text. */

/** The task types the workflow documents. */
export const taskTypes = [
  'auto', 'tdd', 'tracer',
  'checkpoint:human-verify', 'checkpoint:decision', 'checkpoint:human-action', 'checkpoint:tdd-review'
]

/** `taskTypes`, looked up: every rule asks every task its type. */
const knownTaskTypes: ReadonlySet<string> = new Set(taskTypes)

/** `Checkpoint:Human_Verify`, `human-verify`, `checkpoint-decision` → the type of `types` meant, if it is one. */
export function typeMeant(value: string, types: readonly string[]): string | undefined {
  const normalized = value.trim().toLowerCase().replace(/_/g, '-').replace(/\s+/g, '').replace(/^checkpoint-/, 'checkpoint:')
  const exact = types.find((type) => type === normalized || type === `checkpoint:${normalized}`)
  return exact ?? onlyNearMiss(normalized, types)
}

/**
 * The type a task means (`undefined` when it has none): its `type` value, or
 * the documented type that value is a slip of (`human-verify` is a
 * `checkpoint:human-verify`). `task-type` reports and fixes the spelling; every
 * other rule reads the task as the one it will be, so that no rule asks for
 * what the fix undoes (removing the `gate` of a checkpoint spelt `human-verify`).
 */
export function taskType(task: Element): string | undefined {
  const value = attribute(task, 'type')?.value
  if (value === undefined || knownTaskTypes.has(value)) return value
  return typeMeant(value, taskTypes) ?? value
}

/**
 * Whether a plan's tasks are written in another agent's format: it has
 * tasks, and none of them has a `type` or a name (`<name>` or `name="…"`),
 * as in `<task id="3">Install the dependencies</task>`. Such a file is told
 * so once (`task-elements`), not asked for GSD's parts task by task.
 */
export function inForeignTaskFormat(document: PlanDocument): boolean {
  return document.tasks.length > 0 && document.tasks.every((task) =>
    attribute(task, 'type') === undefined && attribute(task, 'name') === undefined && !task.children.some((element) => element.name === 'name'))
}

/** Frontmatter keys of a plan, for telling a plan's frontmatter from other YAML. */
const planKeys = ['phase', 'plan', 'type', 'wave', 'depends_on', 'files_modified', 'autonomous', 'must_haves']

/**
 * A plan's frontmatter written in a ```` ```yaml ```` fence instead of a
 * `---` block (no orchestrator reads it there): the file's first fence, before
 * any task, a `yaml` fence whose YAML sets at least two plan keys.
 */
export function fencedFrontmatter(document: PlanDocument): Range | undefined {
  if (document.frontmatter) return undefined
  const fence = document.opaque.filter((region) => region.kind === 'fenced').sort((a, b) => a.range[0] - b.range[0])[0]
  if (!fence || document.tasks.some((task) => task.range[0] < fence.range[0])) return undefined
  const text = sliceOf(document, fence.range)
  const opening = /^[ \t]*(?:`{3,}|~{3,})[ \t]*ya?ml[ \t]*\r?\n/i.exec(text)
  const closing = /\r?\n[ \t]*(?:`{3,}|~{3,})[ \t]*$/.exec(text)
  if (!opening || !closing || closing.index < opening[0].length) return undefined
  const yaml = text.slice(opening[0].length, closing.index + 1).replace(/^---[ \t]*\r?\n/, '').replace(/(^|\n)---[ \t]*\r?\n?$/, '$1')
  const frontmatter = parseFrontmatter(`---\n${yaml}${yaml.endsWith('\n') ? '' : '\n'}---\n`)
  if (!frontmatter?.data || planKeys.filter((key) => frontmatter.entries.has(key)).length < 2) return undefined
  return fence.range
}

export function isCheckpoint(task: Element): boolean {
  return taskType(task)?.startsWith('checkpoint:') ?? false
}

/** Types that stop for a person though they are not spelt `checkpoint:*` (`task-type` fixes the spelling). */
const humanTypeSlips = new Set(['checkpoint', 'human-verify', 'human-action', 'decision', 'tdd-review'])

/**
 * Whether a task stops for a person: a checkpoint, or a slip of one
 * (`human-verify`, `checkpoint:human_verify`).
 */
export function isHumanTask(task: Element): boolean {
  const type = taskType(task)?.trim().toLowerCase().replace(/_/g, '-')
  if (type === undefined) return false
  return type.startsWith('checkpoint') || humanTypeSlips.has(type)
}

/** A task number before its name: `Task 2:`, `Task W0-T3:`, `T-02-01-1:`, `任务 2:`, `Task 1 (conditional):`, `[BLOCKING]`. */
const taskNumber = /^\s*(?:\[[^\]\n]{0,40}\]\s*)?(?:(?:task|tarefa|tarea|tâche|задача|任务)\s*)?(?:[\w.-]{0,20}\d[\w.-]{0,20}\s*)?(?:\([^)\n]{0,40}\)\s*)?[:：.—–-]?\s*(?:\[[^\]\n]{0,40}\]\s*)?/iu

/** A task's name or heading without the task's number before it. */
export function withoutTaskNumber(name: string): string {
  return name.replace(taskNumber, '').trim()
}

/** What a task's `<name>` says it does (its first 200 characters), without the task's number. */
export function taskTitle(document: PlanDocument, task: Element): string {
  const name = child(task, 'name')
  return name ? withoutTaskNumber(document.text.slice(name.contentRange[0], Math.min(name.contentRange[1], name.contentRange[0] + 200))) : ''
}

/** The text between an element's tags. */
export function contentOf(document: PlanDocument, element: Element): string {
  return sliceOf(document, element.contentRange)
}

/** Elements named `name` anywhere inside `element`. */
export function elementsNamed(element: Element, name: string): Element[] {
  // The walk of `descendants`, keeping only the matches: rules ask every task for a few names, and the whole list each time was garbage.
  const found: Element[] = []
  const pending: Element[] = []
  for (let index = element.children.length - 1; index >= 0; index--) pending.push(element.children[index])
  while (pending.length > 0) {
    const candidate = pending.pop()!
    if (candidate.name === name) found.push(candidate)
    for (let index = candidate.children.length - 1; index >= 0; index--) pending.push(candidate.children[index])
  }
  return found
}

/** Elements that speak to a person: a task carrying one was meant to stop for them. */
export const personElements: ReadonlySet<string> = new Set(['human-check', 'how-to-verify', 'what-built', 'what-to-do', 'resume-signal'])

/** What a task's name or action says when its work is a person's: a manual check, manual intervention, human testing. */
const personWork = /\b(?:manual(?:ly)?[ -](?:verif|interven|qa\b|test|check|smoke)|human[ -](?:verif|test|review|check)|pause for (?:a )?(?:human|person|user))/i

/** A line of a `<verify>` labelled as a person's step: `# Manual verification: …`, `- Manual check: …`. */
const manualStepLabel = /^[ \t]*(?:[#*>-][ \t]*)*manual(?:ly)?(?:[ -](?:verification|verify|test|testing|check|qa|smoke test))?[ \t]*:/im

/**
 * Whether a task holds a person's work though it is not a checkpoint: it
 * carries an element addressed to a person (`<human-check>`), its name
 * or action says the work is manual ("Manual verification", "ask for manual
 * intervention"), or a line of its `<verify>` is labelled as a manual step
 * ("# Manual verification: …"). `autonomous-flag` reads it (`checkpoint-gate`, the elements).
 */
export function holdsPersonWork(document: PlanDocument, task: Element): boolean {
  if (descendants(task).some((element) => personElements.has(element.name))) return true
  if ([...elementsNamed(task, 'name'), ...elementsNamed(task, 'action')].some((element) => personWork.test(plainText(document, element)))) return true
  return elementsNamed(task, 'verify').some((element) => manualStepLabel.test(plainText(document, element)))
}

/** The range of a whole attribute with the white space before it, for removing it cleanly. */
export function attributeRemovalRange(document: PlanDocument, range: Range): Range {
  let start = range[0]
  while (start > 0 && /[ \t]/.test(document.text[start - 1])) start--
  return [start, range[1]]
}

/** Items as prose lists them: `a`, `a and b`, `a, b and c`. */
export function andList(items: readonly string[]): string {
  return items.length > 1 ? `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}` : (items[0] ?? '')
}

/** Names as messages list them: each in backticks, comma-separated. */
export function codeList(names: readonly string[]): string {
  return names.map((name) => `\`${name}\``).join(', ')
}

/** A line number for messages. */
export function lineOf(document: PlanDocument, offset: number): number {
  return document.lines.point(offset).line
}

/** One line of an element's text; `start` is its offset in the source. */
export interface TextLine {
  text: string
  start: number
}

/** The lines of an element's content, without line breaks, blank lines skipped. */
export function contentLines(document: PlanDocument, element: Element): TextLine[] {
  const lines: TextLine[] = []
  const [start, end] = element.contentRange
  const pattern = /[^\r\n]+/g
  const content = document.text.slice(start, end)
  for (const match of content.matchAll(pattern)) {
    if (match[0].trim() !== '') lines.push({text: match[0], start: start + match.index})
  }
  return lines
}

/** An opening, closing or self-closing tag. */
const tagPattern = /<\/?[A-Za-z][\w:.-]*(?:\s[^<>]*)?\/?>/g

/** An element's text with its child tags removed (`<verify><automated>x</automated></verify>` reads `x`). */
export function plainText(document: PlanDocument, element: Element): string {
  return contentOf(document, element).replace(tagPattern, ' ')
}

/** `text` with its tags turned into spaces of the same length, so offsets into it stay exact. */
export function blankTags(text: string): string {
  return text.replace(tagPattern, (tag) => ' '.repeat(tag.length))
}

/** A file path named in `<files>`, `<read_first>` or `files_modified`, with its place in the source. */
export interface PathEntry {
  path: string
  range: Range
}

/** What can start a path: not prose (`(no files)`, `N/A`, `—`). */
const pathStart = /^[\w.~@$/{[*-]/
/** A path-like token: has a separator, a file extension, or is a known extension-less file name. */
const pathLike = /[/\\]|\.[A-Za-z0-9]{1,10}$|^(Dockerfile|Makefile|Procfile|Gemfile|Rakefile|Justfile|LICENSE|README)$/
const notPath = /^(n\/a|none|tbd|todo|etc\.?)$/i

/**
 * A line's first token, up to a bracket (ASCII or full-width: `src/a.ts（更新）` is `src/a.ts` and a note), but for a
 * folder in parentheses right after a `/` that the path goes on from: a Next.js route group or intercepting route
 * (`app/(shop)/page.tsx`, `feed/(..)photo/`).
 */
const pathToken = /^[\s>*+-]*(?:\d+[.)]\s+)?`?((?:[^\s`()'"（）【】「」]|(?<=[/\\])\([^\s`()'"/\\]{1,40}\)(?=[\w.[/\\]))+)/

/**
 * The paths a `<files>`-like element names. Real plans write one path per
 * line or comma-separated, as list items, in backticks or `<item>` tags, with
 * notes after them (`src/a.ts (NEW)`, `src/b.ts — the parser`, `src/c.ts:55`).
 * Conservative: a line's first token counts only when it looks like a path;
 * prose lines (`(no files — verification only)`) name none.
 */
export function pathEntries(document: PlanDocument, element: Element): PathEntry[] {
  const entries: PathEntry[] = []
  const [start, end] = element.contentRange
  // Tags (`<item>`) are no part of a path.
  const content = blankTags(document.text.slice(start, end))
  // Lines, or parts of a line split at `,` and `;` (full-width ones and `、` too; but not the comma of a `{a,b}` brace group,
  // nor the `;` ending an HTML entity: `&lt;run-id&gt;`).
  for (const piece of content.matchAll(/(?:&#?\w{1,8};|[^\n,;{，；、]|\{[^}\n]*\}?)+/g)) {
    const token = pathToken.exec(piece[0])
    if (!token) continue
    // `docs/testing ss/uat-1.png`: a folder name with a space, when it is a path already and the next word goes on with a `/`
    // (not prose: `uses tokio::time::pause/advance`).
    const goesOn = !token[1].includes('/') || /\.[A-Za-z0-9]{1,10}$|\/$/.test(token[1]) ? null : /^ ([^\s`()'"]*\/[^\s`()'"]*)/.exec(piece[0].slice(token[0].length))
    const text = (goesOn ? `${token[1]} ${goesOn[1]}` : token[1]).replace(/:\d+(?:-\d+)?$/, '').replace(/[.:]$/, '')
    if (!pathStart.test(text) || !/[A-Za-z0-9]/.test(text) || notPath.test(text) || !pathLike.test(text.replace(/\/$/, '/x'))) continue
    const at = start + piece.index + token[0].length - token[1].length
    // `&lt;ts&gt;_x.sql` is `<ts>_x.sql` as `files_modified` writes it.
    entries.push({path: text.replace(/&(lt|gt|amp);/g, (_, name: string) => ({lt: '<', gt: '>', amp: '&'})[name]!), range: [at, at + text.length]})
  }
  return entries
}

/** A path as compared between lists: no leading `./`, forward slashes. */
export function normalizePath(value: string): string {
  return value.trim().replace(/\\/g, '/').replace(/^(\.\/)+/, '')
}

/**
 * A path outside the repository: under a system folder for temporary files (`/tmp`, `/var/tmp`, macOS's
 * `/var/folders` and `/private/tmp`, `/dev/null`), the home folder (`~/`, `$HOME/`) or a temporary folder a variable names
 * (`$TMPDIR/`, `${TMPDIR:-/tmp}/`, `%TEMP%\`). Not `/home/…`, `/root/…` or the rest of `/var` (`/var/www/…`): a plan may
 * name a file of its repository by where it is checked out.
 */
const outsideRepositoryPath = /^(?:\/(?:tmp|var\/tmp|var\/folders|private\/(?:tmp|var)|dev)|~|\$(?:HOME|TMPDIR|TMP|TEMP)|\$\{(?:HOME|TMPDIR|TMP|TEMP)(?::-[^}\s]{0,40})?\}|%(?:TEMP|TMP|USERPROFILE|APPDATA|LOCALAPPDATA)%)(?:\/|$)/i

/** Whether a path names a file outside the repository (`/tmp/shot.png`, `~/.config/app.toml`): a plan's worktree does not hold it. */
export function outsideRepository(path: string): boolean {
  return outsideRepositoryPath.test(normalizePath(path))
}

/**
 * Whether a path is a glob (`src/**\/*.ts`, `icons/*.png`, `{a,b}.ts`). Square
 * brackets are not: `app/[id]/page.tsx` is a real route folder.
 */
export function isGlob(value: string): boolean {
  if (value.includes('*') || value.includes('?')) return true
  // A `{…,…}` group, scanned once: the pattern `/\{[^}]*,[^}]*\}/` backtracks over `{{{…,,,`.
  let opened = false
  let comma = false
  for (const char of value) {
    if (char === '{') opened = true
    else if (char === ',' && opened) comma = true
    else if (char === '}') {
      if (comma) return true
      opened = comma = false
    }
  }
  return false
}

/** The `files_modified` (or another list key's, `files_deleted`) entries of a plan's frontmatter, with their ranges (empty when absent). */
export function filesModified(document: PlanDocument, key = 'files_modified'): PathEntry[] {
  const frontmatter = document.frontmatter
  const entry = frontmatter?.entries.get(key)
  if (!frontmatter || !entry) return []
  return frontmatterItems(frontmatter, entry.node)
    .filter((item) => typeof item.value === 'string' && item.value.trim() !== '')
    .map((item) => ({path: String(item.value).trim(), range: item.range}))
}

/** A note opening a `<files>` that says the task writes nothing: `(read-only audit)`, `(no file written this task)`, `(nothing modified)`. */
const writesNothing = /^\s*\([^)\n]{0,120}?\b(?:read[- ]?only|no files? (?:is |are )?(?:written|modified|changed|edited)|nothing (?:is )?(?:written|modified|changed|edited))\b/i

/** The paths every `<name>` element of a plan's tasks lists (`files`, `read_first`), in document order. */
export function taskPaths(document: PlanDocument, name: string): Array<PathEntry & {task: Element}> {
  return document.tasks.flatMap((task) =>
    elementsNamed(task, name)
      // An element cut off by a wrong closing tag runs on into prose; task-markup reports the tag.
      // One that opens with "(read-only …)" or "(no file written …)" lists what the task reads.
      .filter((element) => element.closeTag !== undefined && !writesNothing.test(document.text.slice(element.contentRange[0], element.contentRange[0] + 200)))
      .flatMap((element) => pathEntries(document, element).map((entry) => ({...entry, task})))
  )
}

/** Whether two paths, either perhaps relative to a folder the other names (`route.ts`, `app/api/route.ts`), are one file. */
export function sameFile(a: string, b: string): boolean {
  return a === b || a.endsWith(`/${b}`) || b.endsWith(`/${a}`)
}

/** A folder with a note after it, in the entry's string (`addons/tiles/ (renamed from …)`, `docs/ — the guide`, `lib/ - helpers`). */
const folderNote = /^([^\s()]+\/)\s+(?:[(#—–]|-\s)/

/** A listed folder without the note after it: the note says why it is listed, the folder is what it covers. */
function withoutFolderNote(path: string): string {
  return folderNote.exec(path)?.[1] ?? path
}

/**
 * Whether a listed path covers another: the same file (after `normalizePath`),
 * a glob that matches it, or a folder (`src/ui/`, or `src/ui` without the
 * slash) that holds it.
 */
export function pathCovers(listed: string, named: string): boolean {
  const a = withoutFolderNote(normalizePath(listed))
  const b = normalizePath(named)
  if (a === b) return true
  if (isGlob(a)) return picomatch.isMatch(b, a, {dot: true})
  if (a.endsWith('/')) return b.startsWith(a)
  // A folder named without its slash (`functions/getUser`): its last part has no extension.
  return !a.slice(a.lastIndexOf('/') + 1).includes('.') && b.startsWith(`${a}/`)
}

/** The `<task>` an element belongs to. */
export function taskOf(element: Element): Element {
  let task = element
  while (task.parent) task = task.parent
  return task
}

/**
 * A mistyped close tag that names an element its task does not have
 * (`<behavior>…</action>` in a task without `<action>`): one slip with two
 * readings, a wrong name or a missing `</behavior><action>` pair.
 */
export function closesAbsentElement(problem: MarkupProblem): problem is MarkupProblem & {element: Element; written: string} {
  if (problem.kind !== 'mistyped-close' || !problem.element || !problem.written) return false
  const written = problem.written
  return ![...descendants(taskOf(problem.element))].some((element) => element.name === written)
}

/** `text` without the characters of `chars` at either end (`**Grep**` → `Grep`), by index: a `[*]+$` pattern would rescan a run of them. */
export function trimChars(text: string, chars: string): string {
  let start = 0
  let end = text.length
  while (start < end && chars.includes(text[start])) start++
  while (end > start && chars.includes(text[end - 1])) end--
  return text.slice(start, end)
}
