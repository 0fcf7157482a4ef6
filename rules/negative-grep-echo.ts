import path from 'node:path'
import {child, type Element} from '../src/model/markup.js'
import type {PlanDocument} from '../src/model/document.js'
import {blankTags, elementsNamed, isGlob, lineOf, normalizePath, pathCovers, pathEntries, plainText} from '../src/plan.js'
import {defineRule} from '../src/rule.js'
import {countUpTo} from '../src/sorted.js'
import {allowListed, endOfLine, grepCalls, grepTarget, invertsMatch, isRegionScoped, namesOldText, grepPatterns, negativeGreps, readsProgramOutput, shellSegments, shellView, type NegativeForm} from '../src/shell.js'
import type {Range} from '../src/model/text.js'

/** A grep pattern that matches comment lines: a comment opener anchored at the line start, after optional blanks. */
const commentLines = /^\^(?:\\s\*|\[\[:space:\]\]\*|\[ \\t\]\*| \*)?\(?(?:\/\/|#|\\\*|\/\\\*|--)/

/** Whether a segment's pipeline drops comment lines (`grep -v '^//' f | grep -c 'X'`), so an echo in a comment cannot trip it. */
function dropsComments(segment: string): boolean {
  return grepCalls(segment).some((call) => invertsMatch(call.options) && commentLines.test(call.pattern))
}

/**
 * A line that tells the executor to leave the literal alone ("do not touch
 * X in Task 1", "leave X as it is"): a scope note, not text to write.
 */
const leavesAlone = /\b(?:do not|don't|never)\s+(?:touch|modify|edit|change)\b|\bleave\b[^\n.]{0,60}\b(?:alone|as is|as-is|untouched|unchanged|in place)\b|\b(?:untouched|unchanged)\b/i

/**
 * A literal that a check negative-greps for (`grep -c 'X' file == 0`) must
 * not appear in an `<action>`: the executor copies action text into code
 * comments, and the check then fails on the comment, not on a regression.
 * The rule follows GSD's own plan-structure check (#429), and reads the
 * `! grep -q 'X' f` form of the same gate too.
 */
export default defineRule({
  id: 'negative-grep-echo',
  description: 'A literal that a check negative-greps for does not appear in an `<action>`.',
  severity: 'warning',
  kinds: ['plan'],
  defaultOptions: {},
  check({document, report}) {
    const bodyStart = document.frontmatter?.range[1] ?? 0
    // A gate is a `grep`, which no view of the text below spells where the text does not: without one, nothing to do
    // (the tasks are read all the same, so that a model that fails to build is reported as before).
    if (!document.text.includes('grep', bodyStart)) {
      void document.tasks
      return
    }
    const view = shellView(document.text)
    const allowed = allowListed(view, 'planner-discipline-allow')
    const tasks = document.tasks.map((task, order) => ({task, order, files: filesOf(document, task), untouched: filesLeftAlone(view.slice(...task.range))}))
    const orderOf = new Map(tasks.map(({task, order}) => [task, order]))
    const gates = new Map<string, Gate>()
    // Tags become spaces, so `f.ts</automated>` reads as the file `f.ts`.
    for (const segment of shellSegments(blankTags(view.slice(bodyStart)), bodyStart)) {
      const calls = negativeGreps(segment.text)
      // A gate that reads only part of the file (`grep -A 4 'def x' f | grep -c X`) may never see the echo.
      if (calls.length === 0 || dropsComments(segment.text) || isRegionScoped(segment.text)) continue
      // An unquoted word is only a candidate when the segment has no quoted pattern (GSD's rule).
      const quoted = calls.some((call) => call.quoted)
      const owner = tasks.find(({task}) => task.range[0] <= segment.start && segment.start < task.range[1])?.task
      for (const call of calls) {
        // A check of a program's output (`npm run build | grep -c warning`) cannot see a comment in a file.
        if (call.quoted !== quoted || !call.pattern || allowed.has(call.pattern) || readsProgramOutput(segment.text, call)) continue
        const file = grepTarget(call, (token) => !token.startsWith('-'))
        const scope = {task: owner, file, alone: file !== undefined && !readsMore(call.rest, file)}
        // An echo lands in a code comment, and a JSON file has none.
        if (scope.file !== undefined && holdsNoComments(scope.file) && scope.alone) continue
        const known = gates.get(call.pattern)
        // A quoted gate of the literal wins over an unquoted one met before it: the literal's extent is then known.
        if (known && (known.quoted || !quoted)) known.scopes.push(scope)
        else gates.set(call.pattern, {quoted, line: lineOf(document, segment.start), form: call.form, scopes: [scope, ...(known?.scopes ?? [])]})
      }
    }
    if (gates.size === 0) return
    const fenced = document.opaque
      .filter((region) => region.kind === 'fenced')
      .map((region) => region.range)
      .sort((a, b) => a[0] - b[0])
    const zones = tasks.flatMap(({task, order, files, untouched}) =>
      elementsNamed(task, 'action').map((action) => {
        const [start, end] = action.contentRange
        const ownFences = fenced.filter((fence) => fence[0] >= start && fence[1] <= end)
        // A block shown as the code to replace is what goes.
        const oldCode: Range[] = [
          ...ownFences.filter((fence) => introducesOldCode(view, start, fence[0])),
          ...ownFences.flatMap((fence) => markedOldCode(view, fence)),
          ...unfencedOldCode(view, start, end),
          ...oldCodeBeforeReplacement(view, start, end, fenced)
        ]
        // A grep pasted into the action is a command to run, not text to write.
        const excluded: Range[] = [...grepPatterns(view.slice(start, end), start), ...oldCode]
        return {task, order, files, untouched, start, end, excluded, oldCode, ownFences, destinations: namedDestinations(view, start, end, fenced, files)}
      })
    )
    for (const [literal, gate] of gates) {
      const life = literalLife(view, literal, zones)
      // Per scope, the places in the plan of the tasks that take the literal out of the file it reads, in order: read once, not once an occurrence.
      const removals = gate.scopes.map((scope) => [...new Set(life.takesOut.filter((zone) => writesInto(zone, scope)).map((zone) => zone.order))].sort((a, b) => a - b))
      // An echo matters only where the executor may write it into the file the gate reads, and no later task takes it out first.
      const echo = firstEcho(view, literal, zones, (zone, at) => {
        const destination = destinationOf(zone.destinations, at)
        return gate.scopes.some(
          (scope, index) =>
            writesInto(zone, scope) &&
            writtenBeforeCheck(zone.task, at, scope, fenced) &&
            (destination === undefined || !readsOnlyElsewhere(scope, destination)) &&
            !removedLater(zone, scope, scope.task === undefined ? Infinity : (orderOf.get(scope.task) ?? Infinity), removals[index], life.writes)
        )
      })
      if (echo === undefined) continue
      const range: Range = [echo, echo + literal.length]
      if (gate.quoted) {
        report({
          message: `\`${literal}\` is negative-grepped by a check on line ${gate.line} (\`${gate.form}\`) but this \`<action>\` says it: the executor may copy it into a comment and fail its own check; rephrase it by concept, or add \`<!-- planner-discipline-allow: ${literal} -->\` if it must appear`,
          range,
          severity: 'error'
        })
      } else {
        report({
          message: `\`${literal}\` may be negative-grepped by the check on line ${gate.line}, and this \`<action>\` says it: quote the grep pattern so the literal is unambiguous, and rephrase the action or add \`<!-- planner-discipline-allow: ${literal} -->\``,
          range
        })
      }
    }
  }
})

interface Gate {
  quoted: boolean
  line: number
  form: NegativeForm
  /** Where the literal is banned: the task whose check it is (none for a plan-level check), the file it reads when known, and whether it reads only that. */
  scopes: Array<{task: Element | undefined; file: string | undefined; alone: boolean}>
}

/** The files a task writes: its `<files>`, else the files its `<name>` names ("Gate the subscribe in use-messages.ts"). */
function filesOf(document: PlanDocument, task: Element): string[] {
  const files = child(task, 'files')
  if (files) return pathEntries(document, files).map((entry) => normalizePath(entry.path))
  const name = child(task, 'name')
  const words = name ? plainText(document, name).split(/[\s`'"]+/) : []
  return words.map(withoutTrailingPunctuation).filter((word) => wholeFileName.test(word))
}

/**
 * Whether text at `at` in a task's action is there when the check runs: a
 * task's check runs when that task ends, so a later task's action cannot
 * break it; and code an earlier task writes (a fenced block) is real code that
 * the check's task takes out, not an echo. Prose of an earlier task may still
 * end up in a comment that stays. A plan-level check runs after every task.
 */
function writtenBeforeCheck(task: Element, at: number, scope: Gate['scopes'][number], fenced: Range[]): boolean {
  if (scope.task === undefined || scope.task === task) return true
  if (task.range[0] > scope.task.range[0]) return false
  // Fenced blocks do not overlap: the last one starting at or before `at` is the only one that can hold it.
  const before = countUpTo(fenced, (range) => range[0], at)
  return before === 0 || fenced[before - 1][1] <= at
}

/** An action as the rule reads it: its task and the task's place in the plan, the files it writes, and its parts. */
interface Zone {
  task: Element
  order: number
  files: string[]
  untouched: string[]
  start: number
  end: number
  excluded: Range[]
  oldCode: Range[]
  ownFences: Range[]
}

/**
 * The actions that write a literal on purpose (it is in a fence of code
 * they write, not old code) and those that take it out (it is in old code,
 * or on a line that names it as what goes: "Replace the `X` stub").
 */
function literalLife(view: string, literal: string, zones: Zone[]): {writes: Set<Zone>; takesOut: Zone[]} {
  const writes = new Set<Zone>()
  const takesOut: Zone[] = []
  const within = (at: number, ranges: Range[]) => ranges.some(([start, end]) => at >= start && at < end)
  for (const zone of zones) {
    let takenOut = false
    // The end of the last line read whole: a line is read once, however often the literal is on it.
    let lineEnd = -1
    for (let at = view.indexOf(literal, zone.start); at !== -1 && at + literal.length <= zone.end; at = view.indexOf(literal, at + 1)) {
      if (within(at, zone.oldCode)) takenOut = true
      else if (within(at, zone.excluded)) continue
      else if (within(at, zone.ownFences)) writes.add(zone)
      else if (!takenOut && at > lineEnd) {
        lineEnd = endOfLine(view, at)
        takenOut = namesOldText(sentenceLine(view, at, zone.start, zone.end))
      }
    }
    if (takenOut) takesOut.push(zone)
  }
  return {writes, takesOut}
}

/**
 * Whether the literal, where an earlier task's action says it, is taken
 * out of the file before the check runs (the check's task is at
 * `checkOrder`, Infinity for a check of the plan), so that what the action
 * says of it goes too: a later task, no later than the check's, that may
 * write the file names it as what goes (`removals`: the places of such
 * tasks, sorted); or the action writes it on purpose (a placeholder in its
 * skeleton, `writes`) and the check's task comes after.
 */
function removedLater(zone: Zone, scope: Gate['scopes'][number], checkOrder: number, removals: number[], writes: Set<Zone>): boolean {
  if (checkOrder <= zone.order) return false
  const next = countUpTo(removals, (order) => order, zone.order)
  if (next < removals.length && removals[next] <= checkOrder) return true
  // A check of the plan may read code that no task takes out: there, only a later task that says it goes counts.
  return writes.has(zone) && scope.task !== undefined
}

/** `use-messages.ts:` → `use-messages.ts`, by index: a `[,;:)]+$` pattern would rescan a run of them. */
function withoutTrailingPunctuation(word: string): string {
  let end = word.length
  while (end > 0 && ',;:)'.includes(word[end - 1])) end--
  return word.slice(0, end)
}

/**
 * Whether a task's action may put text into the file a gate reads: it is the
 * gate's own task, or one of its files (`filesOf`) is that file, lies in that
 * folder or glob, or covers it, or has its name; or either side is unknown.
 */
function writesInto(zone: {task: Element; files: string[]; untouched: string[]}, scope: Gate['scopes'][number]): boolean {
  const target = scope.file
  if (target !== undefined && zone.untouched.some((file) => namesFile(file, target))) return false
  if (scope.task === zone.task || target === undefined || zone.files.length === 0 || ['.', './'].includes(target)) return true
  return zone.files.some((file) => namesFile(file, target))
}

/** Whether two paths name the same file or folder: one covers the other, or one is a bare name that is the other's. */
function namesFile(file: string, target: string): boolean {
  const sameName = (a: string, b: string) => !a.includes('/') && path.posix.basename(b) === a
  return pathCovers(target, file) || pathCovers(file, target) || sameName(target, file) || sameName(file, target)
}

/**
 * A file the executor is told to leave as it is: named right after "do not
 * touch" ("Do NOT touch `registry.ts`", "never edit the file a.ts"), inside
 * "leave … alone", or right before "byte-identical", "untouched" or
 * "read-only" ("`registry.ts` stays byte-identical"). What is said of part of
 * a file ("do NOT modify the existing content", "`grep -c X f.cs` unchanged")
 * is not the file.
 */
const fileName = String.raw`[\w@~./-]+\.[A-Za-z][A-Za-z0-9]{0,5}`
/** A word that is a file name, whole. */
const wholeFileName = new RegExp(`^${fileName}$`)
const fileLeftAlone = [
  new RegExp(String.raw`\b(?:do not|don't|never|must not)\s+(?:touch|modify|edit|change)\s+(?:the\s+(?:file\s+)?)?[\x60'"]?(${fileName})`, 'gi'),
  new RegExp(String.raw`\bleave\s+[\x60'"]?(${fileName})[\x60'"]?\s+(?:alone|untouched|unchanged|as is)\b`, 'gi')
]

/** The files a task is told to leave alone (`fileLeftAlone`). */
function filesLeftAlone(text: string): string[] {
  const named = fileLeftAlone.flatMap((pattern) => [...text.matchAll(pattern)].map((match) => match[1]))
  // "`registry.ts` stays byte-identical": read back word by word from the adjective, so no pattern rescans the text.
  for (const match of text.matchAll(/\b(?:byte-identical|untouched|read-only)\b/gi)) {
    // Quotes and backticks separate words as spaces do: "`registry.ts` stays".
    const words = text
      .slice(Math.max(0, match.index - 80), match.index)
      .split(/[\s`'"]+/)
      .filter(Boolean)
    if (/^(?:stays?|remains?|is|are|be)$/i.test(words[words.length - 1] ?? '')) words.pop()
    if (words[words.length - 1] === 'must') words.pop()
    const word = words.pop() ?? ''
    if (wholeFileName.test(word)) named.push(word)
  }
  return named.map(normalizePath)
}

/** How a line that names a destination opens: a list marker, then bold. */
const lineOpening = String.raw`^\s*(?:[-*+]\s+|\d+[.)]\s+)?(?:\*\*)?`
/** The destination file as such a line names it, in group 1: quoted or bold, after "the file", with "(new)" after it. */
const destinationFile = String.raw`(?:the\s+)?(?:file\s+)?[\x60'"]?([\w@~./()[\]-]+\.[A-Za-z][A-Za-z0-9]{0,5})[\x60'"]?(?:\*\*)?(?:\s*\(new(?: file)?\))?`

/**
 * A line that names the one file its code goes to: "In `src/cli/main.ts`,
 * add:", "`test/load.test.ts`:", "Create `src/a.ts` (new):", "**Create
 * `src/a.tsx`** — the client button". Anchored at the line's start, so it is
 * tried once per line.
 */
const namesDestination = new RegExp(String.raw`${lineOpening}(?:(?:in|to|into|inside|create|update|edit|modify|open)\s+)?${destinationFile}(?:,[^:\n\x60]{0,60})?:`, 'i')
/** The same after a verb, then a dash: "**Create `src/a.tsx`** — the client button", "Edit `a.ts` — append:". */
const namesDestinationByDash = new RegExp(String.raw`${lineOpening}(?:in|to|into|create|update|edit|modify|open)\s+${destinationFile}\s[—–](?=\s)`, 'i')

/**
 * The parts of an action written to a named file: the rest of a line that
 * starts by naming it (`namesDestination`), and the block after a line that
 * presents it as the code for one file (`leadFile`): a fence after it, the
 * lines nested under it when it is a list item, or the list right under it.
 * Sorted by start; an inner part may lie in an outer one.
 */
function namedDestinations(view: string, from: number, to: number, fenced: Range[], files: string[]): Array<{range: Range; file: string}> {
  const destinations: Array<{range: Range; file: string}> = []
  for (let start = from; start < to; ) {
    const end = Math.min(to, endOfLine(view, start))
    const line = view.slice(start, end)
    const named = namesDestination.exec(line) ?? namesDestinationByDash.exec(line)
    // "**In `cli.ts`:**": the emphasis that closes after the colon says nothing more.
    const rest = named ? line.slice(named[0].length).replace(/^[*_]{1,3}/, '') : ''
    const namedFile = named ? ownPath(normalizePath(named[1]), files) : undefined
    const goesOn = namedFile !== undefined && rest.trim() !== ''
    if (goesOn) destinations.push({range: [start + named![0].length, end], file: namedFile})
    // A line inside a fence is code, not a lead ("// In `a.ts`:" in a snippet).
    const inFence = fenced[countUpTo(fenced, (range) => range[0], start) - 1]
    const leads = (!goesOn || leadEnds(line)) && (inFence === undefined || start >= inFence[1])
    const file = !leads ? undefined : (namedFile ?? leadFile(line, files))
    const block = file === undefined ? undefined : leadBlock(view, start, end, to, fenced)
    if (file !== undefined && block !== undefined) destinations.push({range: block, file})
    start = end + 1
  }
  return destinations.sort((a, b) => a.range[0] - b.range[0])
}

/** A file named short (`player.py`, `core/run.ts`) as the task's own file it ends (`src/player.py`), when it has exactly one. */
function ownPath(file: string, files: string[]): string {
  if (files.includes(file)) return file
  const own = files.filter((path) => path.endsWith(`/${file}`))
  return own.length === 1 ? own[0] : file
}

/** Words right before a file name that make it where the code goes: "in", "into", "to", "create", and so in Spanish and Russian. */
const destinationWords = new Set(['in', 'into', 'to', 'inside', 'within', 'create', 'creating', 'update', 'edit', 'modify', 'open', 'rewrite', 'write', 'extend', 'patch', 'a', 'an', 'en', 'crear', 'editar', 'modificar', 'actualizar', 'в', 'во', 'создать', 'изменить', 'обновить'])
/** Words before "in" or "to" that make the file a source to read, not where the code goes: "the pattern in `a.ts`", "as in", "defined in". */
const sourceWords = new Set(['pattern', 'patterns', 'as', 'like', 'style', 'same', 'shown', 'defined', 'found', 'existing', 'exists', 'used', 'declared', 'lives', 'mirror', 'mirroring', 'per', 'see', 'from', 'currently', 'already', 'is', 'are', 'similar', 'analogous', 'equivalent', 'identical'])
/** Words between a destination word and the file: "create the new file `a.ts`". */
const fillerWords = new Set(['the', 'file', 'new', 'module', 'test'])

/** Whether a line ends with a colon, before any closing emphasis: it presents what follows it. */
function leadEnds(line: string): boolean {
  let end = line.length
  // Trailing blanks and emphasis by index: a `[\s*_]+$` pattern would rescan a run of them.
  while (end > 0 && ' \t*_'.includes(line[end - 1])) end--
  return line[end - 1] === ':'
}

/**
 * The one file a line presents the block after it as code for: the line ends
 * with a colon, and names the file right after a word of writing or a
 * preposition ("Add `x` to `src/a.ts`:", "**Step 2 — Create `a.test.ts`**
 * (red first):", "… in keyboard.cpp:", "Move these from `a.ts` into
 * `b.ts`:"), not as a source ("the pattern in `a.ts`:"). A bare name counts
 * when it is quoted or one of the task's files. Two such files, and the line
 * names none.
 */
function leadFile(line: string, files: string[]): string | undefined {
  if (!leadEnds(line)) return undefined
  const text = line.trimEnd()
  const words = text.split(/[\s`'"*]+/).filter(Boolean)
  const found = new Set<string>()
  for (const [index, raw] of words.entries()) {
    const word = withoutTrailingPunctuation(raw)
    if (!wholeFileName.test(word) || word.startsWith('.') || word.endsWith('.')) continue
    let before = index - 1
    while (before >= 0 && fillerWords.has(words[before].toLowerCase())) before--
    if (before < 0 || !destinationWords.has(words[before].toLowerCase()) || sourceWords.has(words[before - 1]?.toLowerCase() ?? '')) continue
    const path = ownPath(normalizePath(word), files)
    if (path.includes('/') || files.includes(path) || text.includes(`\`${word}\``) || text.includes(`'${word}'`) || text.includes(`"${word}"`)) found.add(path)
  }
  return found.size === 1 ? [...found][0] : undefined
}

/** The width of a line's leading blanks. */
function indentOf(line: string): number {
  return line.length - line.trimStart().length
}

/** A list item's marker at the start of a line. */
const listItem = /^\s*(?:[-*+]|\d+[.)])\s/

/**
 * The block that a lead line (from `start` to `end`) presents as code for its
 * file: the lines nested deeper than it when it is a list item (its fences
 * among them), else the fence after it (blank lines between), else the list
 * right under it, with its items' nested lines. None when nothing follows.
 */
function leadBlock(view: string, start: number, end: number, to: number, fenced: Range[]): Range | undefined {
  let next = end + 1
  while (next < to && view.slice(next, Math.min(to, endOfLine(view, next))).trim() === '') next = endOfLine(view, next) + 1
  if (next >= to) return undefined
  const lead = view.slice(start, end)
  const first = view.slice(next, Math.min(to, endOfLine(view, next)))
  // A list item's nested lines hold its fences and what follows them; a fence not nested under it is its block alone.
  const item = listItem.test(lead) && indentOf(first) > indentOf(lead)
  const fence = fenced[countUpTo(fenced, (range) => range[0], Math.min(to, endOfLine(view, next))) - 1]
  if (!item && fence !== undefined && fence[0] >= next && fence[1] <= to) return fence
  // A paragraph's list starts on the line right under it.
  if (!item && next !== end + 1) return undefined
  if (!item && (!listItem.test(first) || indentOf(first) < indentOf(lead))) return undefined
  const floor = item ? indentOf(lead) + 1 : indentOf(first)
  let last = -1
  for (let at = next; at < to; ) {
    const lineEnd = Math.min(to, endOfLine(view, at))
    const line = view.slice(at, lineEnd)
    if (line.trim() === '') {
      // A paragraph's list ends at a blank line; a list item's nested lines may go on past one.
      if (!item) break
    } else if (indentOf(line) < floor || (!item && indentOf(line) === floor && !listItem.test(line))) break
    else last = lineEnd
    at = lineEnd + 1
  }
  return last === -1 ? undefined : [next, last]
}

/** The file named as where the text at `at` goes, if any: the innermost part that holds it. */
function destinationOf(destinations: Array<{range: Range; file: string}>, at: number): string | undefined {
  for (let index = countUpTo(destinations, (destination) => destination.range[0], at) - 1; index >= 0; index--) {
    if (at < destinations[index].range[1]) return destinations[index].file
  }
  return undefined
}

/**
 * Whether a gate reads only a path that clearly does not hold `file`: not
 * the file or its folder, nor so when the gate's path is relative to a
 * subfolder (`app/x.py` of `backend/app/x.py`). Unsure is no.
 */
function readsOnlyElsewhere(scope: Gate['scopes'][number], file: string): boolean {
  if (!scope.alone || scope.file === undefined) return false
  const target = normalizePath(scope.file)
  // A file under /tmp is cut out of another file (`awk … f > /tmp/row.txt`): which one, the gate does not say.
  if (target.startsWith('/tmp/')) return false
  // A file named from a subfolder (`core/run.ts` of `src/core/run.ts`) may be the very file the gate reads.
  if (['', '.', './'].includes(target) || namesFile(file, target) || target.endsWith(`/${file}`)) return false
  // A bare name (`core.py`) may lie in any folder the gate reads.
  const folder = target.endsWith('/') || !target.slice(target.lastIndexOf('/') + 1).includes('.')
  if (!file.includes('/') && (folder || isGlob(target))) return false
  if (isGlob(target)) return !pathCovers(`**/${target}`, file)
  return !file.endsWith(`/${target}`) && !file.includes(`/${target.replace(/\/?$/, '/')}`)
}

/** Whether a grep reads more than `file` (`grep -rE X package.json lib`). */
function readsMore(rest: string, file: string): boolean {
  const at = rest.indexOf(file)
  return at !== -1 && /^['"]?\s+[^\s|&;)<>`'"-]/.test(rest.slice(at + file.length))
}

/**
 * Whether a file holds no comments, so that an echo cannot land in it: JSON,
 * but not the JSON configs that take comments (`tsconfig*.json`,
 * `jsconfig*.json`, `devcontainer.json`, `.vscode/` and `.devcontainer/`).
 */
function holdsNoComments(file: string): boolean {
  const name = path.posix.basename(file)
  return /\.json$/i.test(name) && !/^(?:[tj]sconfig\b.*|devcontainer)\.json$/i.test(name) && !/(?:^|\/)\.(?:vscode|devcontainer)\//.test(file)
}

/**
 * Whether the line before a fenced block (within the action) presents the
 * block as the code to take out: "Replace:", "Before:", "Currently (line
 * 74):", "Delete the entire block:", "The current code is:", "find the
 * block:". A verb of taking away followed by what comes instead ("Replace the
 * stub with:", "change it to:") introduces the new code.
 */
function introducesOldCode(view: string, from: number, fence: number): boolean {
  const before = view.slice(from, fence).trimEnd()
  return presentsOldCode(before.slice(before.lastIndexOf('\n') + 1))
}

/**
 * A comment line in a fence that marks the old or the new part of a
 * before/after pair ("// BEFORE:", "# Old (line 12):", "// AFTER:"): the
 * word, then a colon, a closing comment or the line's end.
 */
const fenceMarker = /^\s*(?:\/\/+|#+|--|\/\*+|<!--|;+)\s*(before|old|original|current|after|new|fixed|updated)[ \t]*(?:\([^)\n]{0,60}\)[ \t]*)?(?::|\*\/|-->|$)/i

/** The old part of a fenced before/after pair: from its "// BEFORE:" line to its "// AFTER:" line, or the fence's end. */
function markedOldCode(view: string, fence: Range): Range[] {
  const parts: Range[] = []
  let old: number | undefined
  for (let start = fence[0]; start < fence[1]; ) {
    const end = Math.min(fence[1], endOfLine(view, start))
    const marker = fenceMarker.exec(view.slice(start, end))
    if (marker) {
      const before = /^(?:before|old|original|current)$/i.test(marker[1])
      if (before && old === undefined) old = end
      else if (!before && old !== undefined) {
        parts.push([old, start])
        old = undefined
      }
    }
    start = end + 1
  }
  if (old !== undefined) parts.push([old, fence[1]])
  return parts
}

/** Whether a line presents what follows it as the code to take out (`introducesOldCode`). */
function presentsOldCode(text: string): boolean {
  const line = introText(text)
  if (!line.endsWith(':')) return false
  if (/^(?:\d+[.)]\s*)?(?:the\s+)?(?:before|old|original|current(?:ly)?|existing|expected output)\b/i.test(line) || /\(\s*(?:current(?:ly)?|existing)\b/i.test(line)) {
    return !/\b(?:after|new|final)\b/i.test(line)
  }
  const verb = /\b(?:replace|change|delete|remove|find|locate|swap)\b/i.exec(line) ?? /замен|удал|ersetz|entfern|reemplaz|remplac|supprim|替换|删除|置き換|削除/i.exec(line)
  // "final" is no such word here: "replace the final line:" names the old line.
  return verb !== null && !/\b(?:with|to|into|by|as|add|insert|append|write|use|new|after|becomes?|por|con|par|avec|durch|mit)\b|[に为成]|(?:^|\s)на(?:\s|$)/i.test(line.slice(verb.index + verb[0].length))
}

/** A line read as an introduction: its code spans and emphasis marks turned to spaces, trimmed. */
function introText(text: string): string {
  return text
    .replace(/`[^`\n]*`/g, ' ')
    .replace(/[*_#>]/g, ' ')
    .trim()
}

/**
 * Whether a line presents the unfenced lines after it as the code to take
 * out. Stricter than `presentsOldCode`, as no fence marks where the code
 * ends: it names the code ("The current code reads:", "Current state:"), is
 * only the word ("Currently (line 12):", "Replace:", "Find:"), or orders its
 * removal ("Delete the two handlers:"). Not "edit the row (currently line
 * 5):", whose lines are edits, nor "Before you start, check:".
 */
function presentsQuotedOldCode(text: string): boolean {
  if (!presentsOldCode(text)) return false
  const line = introText(text)
  return (
    /^(?:\d+[.)]\s*)?(?:the\s+)?(?:current|existing|old|original)\s+(?:code|state|version|implementation|text|contents?|lines?|block|snippet|function|body)\b/i.test(line) ||
    /^(?:\d+[.)]\s*)?(?:before|old|currently|current|original|existing|replace|find|locate)(?:\s*\([^)\n]*\))?\s*:$/i.test(line) ||
    /^(?:\d+[.)]\s*)?(?:delete|remove)\b/i.test(line)
  )
}

/**
 * Old code quoted without a fence, as the lines after one that presents the
 * code to take out (`presentsQuotedOldCode`), up to a blank line, a fence or
 * the line that introduces the new code ("Replace with:", a line ending in a
 * colon that is indented no deeper than the first, unlike `def load(url):`): their ranges.
 */
function unfencedOldCode(view: string, from: number, to: number): Range[] {
  const blocks: Range[] = []
  let block: {start: number; indent: number} | undefined
  for (let start = from; start < to; ) {
    const end = Math.min(to, endOfLine(view, start))
    const line = view.slice(start, end)
    const indent = indentOf(line)
    if (block !== undefined && (line.trim() === '' || /^\s*(?:`{3}|~{3})/.test(line) || (line.trimEnd().endsWith(':') && indent <= block.indent))) {
      if (start > block.start) blocks.push([block.start, start])
      block = undefined
    }
    if (block === undefined && presentsQuotedOldCode(line)) block = {start: end + 1, indent}
    start = end + 1
  }
  if (block !== undefined && to > block.start) blocks.push([block.start, to])
  return blocks
}

/** A line that introduces the new code for the old code right above it: "Replace with:", "Replace it with:", "with:", "becomes (…):", "Change to:". */
const replacementLead = /^(?:\d+[.)]\s*|[-+]\s+)?(?:(?:replace(?:\s+(?:it|this|them|that))?\s+)?with|(?:it\s+|this\s+)?becomes|change\s+(?:it\s+)?to)(?:\s*\([^)\n]{0,160}\))?\s*:/i

/**
 * Old code shown right above a line that introduces its replacement
 * (`replacementLead`), blank lines between: the fence that ends there, the
 * lines indented as code under the lead, or a line that is only code spans
 * ("`orderBy('x')`" / "Change to: …"). It is
 * what the edit takes out, as a "Before:" block is. A lead inside a fence is code, and leads nothing.
 */
function oldCodeBeforeReplacement(view: string, from: number, to: number, fenced: Range[]): Range[] {
  const blocks: Range[] = []
  let previous: Range | undefined
  // The last run of non-blank lines before this line: where it starts, its shallowest indent, and whether a blank line ended it.
  let run: {start: number; indent: number; closed: boolean} | undefined
  for (let start = from; start < to; ) {
    const end = Math.min(to, endOfLine(view, start))
    const line = view.slice(start, end)
    const fence = fenced[countUpTo(fenced, (range) => range[0], start) - 1]
    const inFence = fence !== undefined && start < fence[1]
    if (!inFence && previous !== undefined && replacementLead.test(introText(line))) {
      const before = fenced[countUpTo(fenced, (range) => range[0], previous[0]) - 1]
      if (before !== undefined && previous[0] < before[1] && before[0] >= from) blocks.push(before)
      else if (run !== undefined && run.closed && run.indent >= indentOf(line) + 4) blocks.push([run.start, previous[1]])
      else if (view.slice(...previous).includes('`') && /^(?:[-+]|\d+[.)])?$/.test(introText(view.slice(...previous)))) blocks.push(previous)
    }
    if (line.trim() === '') {
      if (run !== undefined) run.closed = true
    } else {
      run = run === undefined || run.closed ? {start, indent: indentOf(line), closed: false} : {...run, indent: Math.min(run.indent, indentOf(line))}
      previous = [start, end]
    }
    start = end + 1
  }
  return blocks
}

/** A search said in words, right before the literal: "Grep for `X`", "search src/ for X", "rg `X`". */
const searchSaid = /\b(?:grep|rg|ripgrep|search|scan)(?:\s+[\w./*-]+){0,4}\s+for\s*[`'"]?$|\b(?:grep|rg)(?:\s+-\w+)*\s+[`'"]?$/i

/**
 * A step that opens with the verb of a search, right before the literal:
 * "Audit for `X`", "**Step 2: Check for `X`", "- check src/ for X". Read after
 * a line start (marked by a newline) or a step's punctuation, as "an audit
 * log for X" and "add a check for X" name code.
 */
const stepSearchSaid = /(?:\n[ \t]*(?:[-*+>][ \t]+|\d+[.)][ \t]+|#+[ \t]+)?|[.:;!?—–][ \t]+)(?:\*\*[ \t]*)?(?:(?:then|now|first|also)\s+)?(audit|check)(?:\s+[\w./*-]+){0,4}\s+for\s*[`'"]?$/i

/**
 * What follows a literal that a "check for" names as a search: the end of
 * the line or heading, the removal ("and remove"), a place ("in src/") or
 * the uses ("usages"); not "before the call", where the check is code.
 */
const searchGoesOn = /^(?!\w)[`'"]?(?:\*\*)?\s*(?:$|\n|(?:and|then)\s+(?:remove|delete|replace|fix|clean|strip|drop|resolve|rewrite|update)|(?:in|across|under|throughout)\s|(?:occurrences?|usages?|uses|references?|remnants?|leftovers?|calls?|imports?|mentions?|instances?|matches)\b)/i

/** Whether the literal at `at` is what the action tells the executor to search for; reads bounded spans around it. */
function searchedFor(view: string, at: number, literal: string, from: number): boolean {
  const start = Math.max(from, at - 60)
  const before = view.slice(start, at)
  if (searchSaid.test(before)) return true
  // A newline marks where the line starts, so that the step's verb is seen there.
  const step = stepSearchSaid.exec(start === from || view[start - 1] === '\n' ? `\n${before}` : before)
  if (!step) return false
  return step[1].toLowerCase() === 'audit' || searchGoesOn.test(view.slice(at + literal.length, at + literal.length + 60))
}

/**
 * The line holding `at`, with the line before it when the sentence runs on
 * from there ("Delete the now-orphaned" / "`X` key blocks"): that line ends
 * without a stop, or with a colon after old text ("Replace:"), and this one
 * starts no list item.
 */
function sentenceLine(view: string, at: number, from: number, to: number): string {
  const start = Math.max(from, view.lastIndexOf('\n', at) + 1)
  const line = view.slice(start, Math.min(to, endOfLine(view, at)))
  if (start <= from || listItem.test(line)) return line
  const previousStart = Math.max(from, view.lastIndexOf('\n', start - 2) + 1)
  const previous = view.slice(previousStart, start - 1)
  // A colon ends the sentence, unless it introduces the old text on this line ("Replace:" / "`X`").
  const runsOn = !/[.:;!?。：]\s*$|^\s*$/.test(previous) || (/[:：]\s*$/.test(previous) && namesOldText(previous))
  return runsOn ? `${previous} ${line}` : line
}

/**
 * The first place `literal` occurs in an action, outside pasted negative
 * greps, searches said in words, old code quoted to be replaced, and lines that name it only as what to take away ("delete
 * the line X") or to leave alone ("do not touch X in Task 1").
 */
function firstEcho<Action extends {start: number; end: number; excluded: Range[]}>(
  view: string,
  literal: string,
  zones: Action[],
  counts: (zone: Action, at: number) => boolean
): number | undefined {
  for (const zone of zones) {
    for (let at = view.indexOf(literal, zone.start); at !== -1 && at + literal.length <= zone.end; at = view.indexOf(literal, at + 1)) {
      if (zone.excluded.some(([start, end]) => at >= start && at < end) || searchedFor(view, at, literal, zone.start) || !counts(zone, at)) continue
      const line = sentenceLine(view, at, zone.start, zone.end)
      if (!namesOldText(line) && !leavesAlone.test(line)) return at
    }
  }
  return undefined
}
