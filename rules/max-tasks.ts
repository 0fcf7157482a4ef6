import type {PlanDocument} from '../src/model/document.js'
import type {Element} from '../src/model/markup.js'
import type {Range} from '../src/model/text.js'
import {child} from '../src/model/markup.js'
import {andList, contentOf, elementsNamed, filesModified, isCheckpoint, lineOf, normalizePath, pathEntries, sameFile, taskPaths, taskTitle, withoutTaskNumber} from '../src/plan.js'
import {shellSegments, shellView} from '../src/shell.js'
import {pushTo} from '../src/lists.js'
import {defineRule} from '../src/rule.js'

interface Options {
  /** Most tasks one plan may have (more is an error); `0` turns the check off. */
  max: number
  /** Tasks above which a plan gets a warning (up to `max`); `0` turns the warning off. */
  warnAbove: number
  /** Fewest tasks one plan may have; `0` turns the check off. */
  min: number
  /** Most files one plan may modify (more is an error); `0` turns the check off. */
  maxFiles: number
  /** Files above which a plan gets a warning (up to `maxFiles`); `0` turns the warning off. */
  warnFilesAbove: number
}

/** A legacy task heading (`## Task 2: Add the route`), in plans written before `<task>` blocks. */
const taskHeading = /^Task\s+\d+\b/i

/** A task name that makes it one of alternatives, only one of which runs: `Task 4 (if the API pages): …`, `If it does not: …`. */
const alternativeName = /^(?:task\s*\d+[a-z]?\s*)?\((?:only\s+)?if\b|^(?:task\s*\d+[a-z]?\s*[:.-]\s*)?(?:only\s+)?if\b/i

/** Whether a task is one of alternatives by its name. */
function isAlternative(document: PlanDocument, task: Element): boolean {
  const name = child(task, 'name')
  return name !== undefined && alternativeName.test(document.text.slice(name.contentRange[0], Math.min(name.contentRange[1], name.contentRange[0] + 200)).trim())
}

/**
 * One part of a name that is a step GSD's executor takes after every plan's
 * tasks (`workflows/execute-plan.md`: create_summary, update_current_position,
 * update_roadmap, update_requirements, git_commit_metadata): a commit or push,
 * the plan's SUMMARY, STATE, ROADMAP or REQUIREMENTS (their names in capitals,
 * as the files are: `state.test.ts` is no STATE.md).
 */
const commitPart = /^(?:(?:atomic|final|single|local|closure|unified|unificado|atómicos?|atomicos?)\s+)*(?:git\s+)?(?:commits?|push|pushes)\b/i
const planningDocPart =
  /^(?:(?:[Ww]rite|[Cc]reate|[Uu]pdate|[Ss]ync|[Rr]efresh|[Aa]dvance|[Ff]inali[sz]e|[Cc]rear|[Ee]scribir|[Aa]ctualizar|[Aa]tualizar)\s+)?(?:the\s+)?`?(?:\.planning\/)?(?:[\w.-]{0,40}-)?(?:SUMMARY|STATE|ROADMAP|REQUIREMENTS)(?:\.md)?\b|^(?:[Cc]lose-?out|[Ff]inal|[Cc]losing)\s+summary\b/
/** Staging the files, a part of committing them: `Stage and commit the changes`, `git add + git commit`. */
const stagePart = /^(?:git\s+add|stage)(?:\s+(?:(?:the|all)\s+)?(?:\w+\s+)?(?:changes|files|edits))?$/i
const bookkeepingPart = (part: string) => commitPart.test(part) || planningDocPart.test(part) || stagePart.test(part)
/** A step that runs the migration tool over a schema an earlier task wrote: `Generate the Drizzle migration`, `Apply migration 0007`. */
const generatedMigration = /^(?:generate|regenerate|run|apply|push)\b[^\n]{0,40}\bmigrations?\b/i

/**
 * One part of a name that runs the plan's checks, as GSD's executor does after every plan's tasks
 * (`workflows/execute-plan.md`: "Run `<verification>` checks"): the build, the tests, the type check, the linter, a
 * smoke test, a final verification, the plan's greps (`Anti-pattern grep`), a check that what worked still works, and
 * fixing what they find (its `verification_failure_gate`); not a check of anything else ("Verify each plan is
 * executable": an audit, work).
 */
const checkPart =
  /^(?:the\s+)?(?:(?:final|full|static|quick|overall|last|closing|automated|end-of-[\w-]{1,30}|cross-cutting)\s+){0,3}(?:(?:re-?)?run\s+(?:the\s+|all\s+)?(?:(?:full|whole|entire|complete|unit|integration|e2e|automated)\s+){0,2}(?:tests?|test\s+suites?|suites?|build|typecheck|type-check|type\s+check|linters?|lint|checks?|verification|smoke\s+tests?)\b|(?:verification|validation)\b|(?:re-?)?run\s+(?:the\s+)?(?:plan'?s|plan-level|phase'?s|phase-level)\s+(?:verification|checks?|greps?)\b|(?:verify|validate)(?:$|\s+(?:that\s+)?(?:no\s+regressions?\b|(?:the\s+|all\s+)?(?:build|tests?|test\s+suite|suite|checks?)\b))|(?:re-?verify|verify|validate|confirm|check|ensure)\s+[^\n]{0,80}?\b(?:still\s+(?:works?|pass(?:es)?|compiles?|builds?|resolves?|points?|loads?|renders?|runs?)|unchanged|unaffected)\b|(?:[\w-]+\s+){0,2}greps?(?:\s+(?:audits?|checks?|gates?|sweeps?|pass))?(?:\s+(?:on|over|across|of)\s+[^\n]{0,60})?$|smoke(?:[- ]?tests?|\s+checks?)?\b|build(\s+(?:passes|succeeds|checks?|gate))?$|typecheck\b|type-check\b|lint\b|(?:syntax|type|lint|sanity|build)\s+checks?\b|checks$|regression\s+(?:gate|checks?|run)\b|(?:test\s+)?suite(?:\s+(?:green|passes|run))?$|tests?\s+(?:smoke|green|pass(?:es)?)$|fix\s+(?:any\s+|the\s+|all\s+)?(?:(?:type|build|test|lint|compile|tsc)\s+)?(?:failures|failing\s+tests|regressions|errors)\b|fix\s+what(?:ever)?\s+(?:it|they)\s+(?:finds?|turns?\s+up|reports?)\b|最终验证|验证)/i

/**
 * One part of a name that re-runs the plan's checks, in a task that says it writes nothing: the greps of its
 * `<verification>` (`Anti-pattern grep`, `D-4 grep audit`), a verification or gate of the plan (`Plan-level
 * verification`, `Preview gate`), a read-only sweep, a check that what worked is unchanged.
 */
const readOnlyCheckPart =
  /\b(?:greps?|verification|validation|verificaci[oó]n|validaci[oó]n|gates?|sweeps?|regressions?|smoke|sanity|compiles?|still|unchanged|unaffected|intact)\b/i
/** A `<files>` without paths that says its task writes none: `none`, `N/A`, `(verification only)`, `(no source changes)`. */
const noFilesNote = /\b(?:none|n\/a|nothing|ninguno|(?:verification|verify|checks?|read|commit|git)[- ]only|no\s+(?:[\w-]+\s+){0,2}(?:files?|edits?|changes|modifications)\b)/i
/** An action that says its task writes no file: `This task does NOT modify any file`, `no files are modified`. */
const writesNoFile =
  /\b(?:does\s+not|doesn't|do\s+not|don't|will\s+not|won't|must\s+not)\s+(?:modify|write|change|edit|touch|create)\s+(?:any\s+)?(?:[\w-]+\s+)?files?\b|\bno\s+(?:[\w-]+\s+)?files?\s+(?:are\s+|is\s+|will\s+be\s+)?(?:modified|changed|written|edited|touched)\b|\bmodif(?:y|ies)\s+no\s+(?:[\w-]+\s+)?files?\b/i

/**
 * Whether a task says it writes nothing: its `<files>` lists no path and says so (or is empty where other tasks list
 * theirs), or its action says it modifies no file.
 */
function declaresNoFiles(document: PlanDocument, task: Element): boolean {
  const files = elementsNamed(task, 'files')
  if (files.some((element) => pathEntries(document, element).length > 0)) return false
  const notes = files.map((element) => contentOf(document, element).trim())
  if (notes.some((note) => noFilesNote.test(note.slice(0, 200)))) return true
  const othersList = () => document.tasks.some((other) => other !== task && elementsNamed(other, 'files').some((element) => pathEntries(document, element).length > 0))
  if (notes.some((note) => note.replace(/[\s()[\]\-—–]/g, '') === '') && othersList()) return true
  return elementsNamed(task, 'action').some((action) => writesNoFile.test(contentOf(document, action)))
}

/** The files the tasks before `task` list in their `<files>`. */
function filesBefore(document: PlanDocument, task: Element): string[] {
  const tasks = document.tasks.slice(0, document.tasks.indexOf(task))
  return tasks.flatMap((earlier) => elementsNamed(earlier, 'files').flatMap((files) => pathEntries(document, files).map((entry) => normalizePath(entry.path))))
}

/**
 * Whether a task only runs the plan's checks: every part of its name does (or is bookkeeping), and it writes no file
 * but the files earlier tasks list, where fixing what the checks find goes.
 */
function onlyChecks(document: PlanDocument, task: Element): boolean {
  const parts = nameParts(taskTitle(document, task))
  // A task that says it writes nothing may name the plan's own checks more loosely; an audit of anything else still counts.
  const writesNothing = parts.some((part) => readOnlyCheckPart.test(part)) && declaresNoFiles(document, task)
  const isCheck = (part: string) => checkPart.test(part) || (writesNothing && readOnlyCheckPart.test(part))
  if (!parts.some(isCheck) || !parts.every((part) => isCheck(part) || bookkeepingPart(part))) return false
  const own = elementsNamed(task, 'files').flatMap((files) => pathEntries(document, files).map((entry) => normalizePath(entry.path)))
  if (own.length === 0) return true
  const earlier = filesBefore(document, task)
  return own.every((path) => earlier.some((file) => sameFile(file, path)))
}

/**
 * The parts of a task name (`Commit + push`, `Write SUMMARY.md and update STATE.md`), notes in brackets or after a dash aside;
 * bold and code marks off, and the task number they hid (`**Task 5: Commit**`).
 */
function nameParts(name: string): string[] {
  const bare = withoutTaskNumber(name.replace(/\s[—–]\s[^\n]*/, '').replace(/\([^()\n]{0,200}\)|\[[^[\]\n]{0,200}\]|\*\*|`/g, ' '))
  return bare
    .split(/[+,&;]|\b(?:and|y|e|then)\b/i)
    .map((part) => part.trim())
    .filter(Boolean)
}

/** What a task is to the limit, by its name: work, the executor's bookkeeping, or a generated migration. */
function kindOf(name: string): 'work' | 'bookkeeping' | 'migration' {
  const parts = nameParts(name)
  if (parts.length === 0) return 'work'
  if (parts.every(bookkeepingPart)) return 'bookkeeping'
  if (generatedMigration.test(parts[0]) && parts.slice(1).every((part) => generatedMigration.test(part) || bookkeepingPart(part) || /^apply\b/i.test(part))) return 'migration'
  return 'work'
}

/**
 * The tasks of a plan the executor works through: its `<task>` blocks but
 * checkpoints (the orchestrator runs those), the executor's own bookkeeping
 * and generated migrations (they cost next to no context), alternatives side
 * by side counted once; or, in a legacy plan without any, its `## Task N`
 * headings.
 */
function tasksOf(document: PlanDocument): {tasks: Range[]; all: number; leftOut: string[]; alternatives: boolean} {
  const count = (number: number, one: string, many: string) => (number === 0 ? [] : [number === 1 ? `its ${one}` : `its ${number} ${many}`])
  if (document.tasks.length === 0) {
    const headings = document.headings.filter((heading) => (heading.depth === 2 || heading.depth === 3) && taskHeading.test(heading.text.trim()))
    const work = headings.filter((heading) => kindOf(heading.text.slice(0, 200)) !== 'bookkeeping')
    return {tasks: work.map((heading) => heading.range), all: headings.length, leftOut: count(headings.length - work.length, 'bookkeeping task', 'bookkeeping tasks'), alternatives: false}
  }
  const executed = document.tasks.filter((task) => !isCheckpoint(task))
  const kinds: Array<'work' | 'bookkeeping' | 'migration' | 'checks'> = executed.map((task) => kindOf(taskTitle(document, task)))
  // The checks that close a plan (only bookkeeping after them) are the executor's own closing step; a check with work after it is a step that work needs.
  for (let index = executed.length - 1; index >= 0 && kinds[index] !== 'migration'; index--) {
    if (kinds[index] === 'bookkeeping') continue
    if (!onlyChecks(document, executed[index]!)) break
    kinds[index] = 'checks'
  }
  const work = executed.filter((_, index) => kinds[index] === 'work')
  const tasks = work.filter((task, index) => !(index > 0 && isAlternative(document, task) && isAlternative(document, work[index - 1])))
  const leftOut = [
    ...count(document.tasks.length - executed.length, 'checkpoint', 'checkpoints'),
    ...count(kinds.filter((kind) => kind === 'bookkeeping').length, 'bookkeeping task', 'bookkeeping tasks'),
    ...count(kinds.filter((kind) => kind === 'migration').length, 'generated migration', 'generated migrations'),
    ...count(kinds.filter((kind) => kind === 'checks').length, 'closing check', 'closing checks')
  ]
  return {tasks: tasks.map((task) => task.openTag), all: document.tasks.length, leftOut, alternatives: tasks.length < work.length}
}

/** Files the executor does not write by hand, or that are data: lockfiles, snapshots, generated code, fixtures. */
const notWrittenCode =
  /(?:^|\/)(?:package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|bun\.lockb?|Cargo\.lock|poetry\.lock|uv\.lock|Pipfile\.lock|Gemfile\.lock|composer\.lock|go\.sum|pubspec\.lock|Podfile\.lock|flake\.lock)$|(?:^|\/)(?:__snapshots__|__fixtures__|fixtures|testdata|generated|__generated__)\/|\.snap$|[.-]generated\.[A-Za-z]+$|\.g\.dart$|\.pb\.go$|_pb2\.py$/

/** A marker that is empty or one line: a `.gitkeep`, `py.typed`, a version pin. */
const markerFile = /(?:^|\/)(?:\.gitkeep|\.keep|py\.typed|\.python-version|\.nvmrc|\.node-version|\.ruby-version)$/
/** Words giving a package's `__init__.py` content: it exports, re-exports or imports something, or holds `__all__`. */
const initContent = /\b(?:re-?exports?|re-?exporting|exports?|exporting|imports?|importing|registry|registers?|exposes?)\b|\b__all__\b/i

/** A word of a line that may be a path: `config/app.toml`, `app/db/__init__.py`. */
const pathWord = /[\w@~-][\w.@~-]*(?:\/[\w.@~-]+)*/g

/** The files a line names, by their last part (`config/app.toml` names `app.toml`), and an `__init__.py` by its folder too (`db/__init__.py`). */
function namesIn(line: string): string[] {
  return [...line.matchAll(pathWord)].flatMap((match) => {
    // A sentence's full stop after the name (`app.toml.`) is no part of it.
    const parts = (match[0].endsWith('.') ? match[0].slice(0, -1) : match[0]).split('/')
    const last = parts.at(-1)!
    return last === '__init__.py' && parts.length > 1 ? [last, `${parts.at(-2)}/${last}`] : [last]
  })
}

/** The package markers among a plan's files: empty-or-one-line markers, and the `__init__.py` files no line naming them by their folder gives content. */
function markersOf(files: string[], lines: string[]): Set<string> {
  const inits = files.filter((file) => /(?:^|\/)__init__\.py$/.test(file))
  const withContent = new Set(inits.length === 0 ? [] : lines.filter((line) => line.includes('__init__.py') && initContent.test(line)).flatMap(namesIn))
  const named = (file: string) => file.split('/').slice(-2).join('/')
  return new Set([...files.filter((file) => markerFile.test(file)), ...inits.filter((file) => !withContent.has(named(file)))])
}

/**
 * A type declared whole on one line: `public record OrderId(UUID value) {}`, `enum class Status { NEW }`, `data class
 * Money(val cents: Long)`, `public enum Core { public static let placeholder = true }`; its name is the file's, and
 * what its braces hold is the second group.
 */
const oneLineType =
  /^(?:@\w+\s+){0,3}(?:(?:public|internal|private|export|pub|final|sealed|abstract|static|open|data|value|enum|inline|frozen)\s+){0,4}(?:record|enum|interface|class|struct|object|protocol)\s+([A-Z]\w*)\b(?:[^{}\n]*\{([^{}\n]*)\}\s*|[^{}()\n]*\([^{}()\n]*\)[^{}()\n]*);?$/
/** A line a one-type file has beside its declaration: blank, a comment, its package, imports and namespace, a fence. */
const declarationBoilerplate = /^\s*(?:$|\/\/|\/\*|\*|#(?!include)|--|(?:package|import|using)\s|namespace\s+[\w.]+\s*;|`{3,}|~{3,})/

/**
 * The files whose whole declaration the plan writes out on one line, in inline code or in a code block of nothing
 * but such declarations (and their boilerplate): one type per file, as Java has it, each costing the executor a line.
 */
function oneLineTypes(document: PlanDocument, files: string[]): Set<string> {
  const byName = new Map<string, string[]>()
  for (const file of files) {
    const stem = /(?:^|\/)([A-Z]\w{0,80})\.[A-Za-z]{1,6}$/.exec(file)
    if (stem) pushTo(byName, stem[1], file)
  }
  const found = new Set<string>()
  if (byName.size === 0) return found
  // A `...` stands for what the line leaves out, and a function in the braces is a signature whose body is elsewhere
  // (`enum Parser { static func parse(_ uri: String) throws -> Parsed }`): the declaration is not whole.
  const declared = (line: string) => {
    const match = /\.\.\.|…/.test(line) ? null : oneLineType.exec(line.trim())
    return match && !/\b(?:func|fun|fn|def|function|init|void)\b|\)\s*(?:->|:|;)/.test(match[2] ?? '') ? match[1] : undefined
  }
  const take = (name: string | undefined) => {
    for (const file of (name !== undefined && byName.get(name)) || []) found.add(file)
  }
  for (const region of document.opaque) {
    if (region.kind !== 'fenced') continue
    const code = document.text.slice(region.range[0], region.range[1]).split('\n').slice(1).filter((line) => !declarationBoilerplate.test(line))
    const names = code.map(declared)
    if (names.every((name) => name !== undefined)) names.forEach(take)
  }
  // Inline code is read from the text: inside a task's tags Markdown parses none.
  for (const span of document.text.matchAll(/`([^`\n]{1,300})`/g)) {
    if (!document.fenced.holding(span.index)) take(declared(span[1]))
  }
  return found
}

/** Programs whose `-o` is no output file (`grep -o` prints the match). */
const noOutputFile = new Set(['grep', 'egrep', 'fgrep', 'rg', 'ag', 'ack'])
/** Programs whose redirected output is text the plan writes out (`cat > f <<EOF`, `echo x > f`), not a tool's. */
const handWritten = new Set(['cat', 'echo', 'printf', 'print'])

/** One file a command writes: its path, and for a copy into a folder the names of the files copied. */
interface Written {
  dest: string
  sources: string[]
}

/**
 * The files a command writes without the executor writing their text: a copy's destination (`cp`, `rsync`), a download
 * (`curl -o`, `wget -O`), a tool's output file (`-o`, `--output`) or its output redirected to a file.
 */
function writtenBy(command: string): Written[] {
  if (command.includes('<<')) return []
  const tokens = command.split(/\s+/).map((token) => token.replace(/^['"]|['"]$/g, '')).filter(Boolean)
  const program = tokens.find((token) => /^[\w.-]+$/.test(token) && token !== 'sudo') ?? ''
  const written: Written[] = []
  const copy = tokens.findIndex((token) => token === 'cp' || token === 'rsync')
  if (copy !== -1) {
    const operands = tokens.slice(copy + 1).filter((token) => !token.startsWith('-'))
    if (operands.length >= 2) written.push({dest: operands.at(-1)!, sources: operands.slice(0, -1)})
  }
  for (const [index, token] of tokens.entries()) {
    const next = tokens[index + 1]
    const flag = /^--(?:output|out|outfile|output-file|out-file)=(.+)$/.exec(token)
    if (flag) written.push({dest: flag[1], sources: []})
    else if (next && (/^(?:-o|--output|--out|--outfile|--output-file|--out-file)$/.test(token) ? !noOutputFile.has(program) : token === '-O' && program === 'wget')) {
      written.push({dest: next, sources: []})
    } else if (/^>>?$/.test(token) && next && !handWritten.has(program)) written.push({dest: next, sources: []})
  }
  return written.filter(({dest}) => !/[$*{}]|^\/dev\//.test(dest))
}

/** Whether a command's write is the file: its destination, or the folder a file of the same name is copied into. */
function writes(written: Written, file: string): boolean {
  const dest = normalizePath(written.dest).replace(/\/$/, '')
  if (dest !== '' && sameFile(file, dest)) return true
  const base = file.slice(file.lastIndexOf('/') + 1)
  return written.sources.some((source) => source.slice(source.lastIndexOf('/') + 1) === base) && sameFile(file, `${dest}/${base}`)
}

/** A word of an edit by hand: a file copied in and then changed is written. */
const handEdit = /\b(?:edit|modify|update|add|append|change|set|extend|patch|replace|rewrite|implement|insert|fill|customi[sz]e|adjust|configure|tweak|remove|delete)(?:s|es|d|ed|ing)?\b/i

/**
 * The commands of an action's lines (its text as `shellView` gives it, which joins a command wrapped over lines): each
 * line's `&&`/`||` parts, cut at `;`, `|` and backticks.
 */
function commandsOf(lines: string[]): Array<{line: number; command: string}> {
  return lines.flatMap((text, line) => shellSegments(text).flatMap((segment) => segment.text.split(/[;|`]/).map((command) => ({line, command: command.trim()}))))
}

/**
 * The files a plan's actions only copy in or have a tool write: a command writes each, and no line of the actions but
 * those commands' names it beside an edit. Commands and edits are indexed by the names of the files they name, so a
 * plan's cost is its length, not its files times its lines.
 */
function commandWritten(document: PlanDocument, files: string[]): Set<string> {
  const found = new Set<string>()
  const baseOf = (path: string) => path.slice(path.lastIndexOf('/') + 1)
  for (const task of document.tasks) {
    for (const action of elementsNamed(task, 'action')) {
      const lines = shellView(contentOf(document, action)).split('\n')
      const writesByName = new Map<string, Array<{line: number; written: Written}>>()
      for (const {line, command} of commandsOf(lines)) {
        for (const written of writtenBy(command)) {
          for (const name of new Set([baseOf(normalizePath(written.dest)), ...written.sources.map(baseOf)])) pushTo(writesByName, name, {line, written})
        }
      }
      if (writesByName.size === 0) continue
      const editsByName = new Map<string, number[]>()
      for (const [index, line] of lines.entries()) {
        if (!handEdit.test(line)) continue
        for (const name of new Set(namesIn(line))) pushTo(editsByName, name, index)
      }
      for (const file of files) {
        const base = baseOf(file)
        const writing = new Set((writesByName.get(base) ?? []).filter(({written}) => writes(written, file)).map(({line}) => line))
        if (writing.size > 0 && !(editsByName.get(base) ?? []).some((line) => !writing.has(line))) found.add(file)
      }
    }
  }
  return found
}

/**
 * Whether a plan modifies more files than its limits, with the count and where to say it. The files it modifies:
 * its `files_modified`, else the `<files>` of its tasks, each path once, but lockfiles, fixtures, generated files,
 * package markers, types it writes out on one line and the files its actions copy in or have a tool write.
 */
function filesOver(document: PlanDocument, options: Options): {count: number; range: Range; excess: Excess} | undefined {
  const listed = filesModified(document)
  const entries = listed.length > 0 ? listed : taskPaths(document, 'files')
  const range = listed.length > 0 ? document.frontmatter?.entries.get('files_modified')?.keyRange : entries[0]?.range
  const files = [...new Set(entries.map((entry) => normalizePath(entry.path)))].filter((file) => !notWrittenCode.test(file))
  // What is left out below only lowers the count: a plan within the limits already is not read for markers and commands.
  if (!range || !fileFinding(files.length, options)) return undefined
  const markers = markersOf(files, document.text.split('\n'))
  const oneLiners = oneLineTypes(document, files)
  const distinct = files.filter((file) => !markers.has(file) && !oneLiners.has(file))
  const byCommand = commandWritten(document, distinct)
  const count = distinct.filter((file) => !byCommand.has(file)).length
  const excess = fileFinding(count, options)
  return excess && {count, range, excess}
}

/**
 * A note's name of the file count, of the task count, and of the plan's size as a whole (both counts), as authors
 * write them and as GSD's plan checker reports them (`dimension: scope_sanity`, "Dimension 5: Scope Sanity"):
 * `file count`, `16 files`, `3 locale files`, `15-file cap`, `tasks/plan`; `scope sanity`, `context budget`. A number
 * before one task or file is no count (`Plan 03 Task 2`).
 */
const fileCount = /\bfiles?[ _-]?counts?\b|\bfiles?\s*(?:\/|per)\s*plan\b|\bnumber\s+of\s+files\b|(?:^|[^\w.])~?\d{1,3}(?:\+?(?:\s+[a-z][\w-]{0,29})?\s+files|-files?)\b/i
const taskCount = /\btasks?[ _-]?counts?\b|\btasks?\s*(?:\/|per)\s*plan\b|\bnumber\s+of\s+tasks\b|(?:^|[^\w.])~?\d{1,3}(?:\+?(?:\s+[a-z][\w-]{0,29})?\s+tasks|-tasks?)\b/i
const planSize = /\bscope[ _-]?sanity\b|\bdimension\s*5\b|\bcontext[ _-]budget\b|\bplan[ _-]size\b/i
/** A note's word for the checker's finding or the limit it is over. */
const limitWord = /\b(?:checker|warn(?:ing|ings|ed|s)?|blockers?|flag(?:ged|s)?|caps?|limits?|targets?|thresholds?|budgets?|exceed(?:ed|ing|s)?|split(?:ting|s)?|borderline)\b/i
/** A note's word that the author accepts it: `accepted`, `acknowledged`, `intentionally`, `justified by`, `no split`. */
const acceptWord =
  /\b(?:accept(?:ed|able)?|acknowledg(?:e|ed|es|ing|ement|ment)|waive[ds]?|waiver|intentional(?:ly)?|deliberate(?:ly)?|justif(?:ied|ies|y|ication)|by\s+design|on\s+purpose|no\s+(?:further\s+)?split|not\s+(?:a\s+|to\s+(?:be\s+)?)?split|(?:do|does|did|should|will|need)(?:\s+not|n't)\s+(?:be\s+)?split)\b/i
/** A label that makes what it heads a note on the plan's scope: `scope_note:`, `## Scope note`, `**Scope note (…):**`, `<scope_note>`. */
const scopeLabel = /^(?:#{1,6}|[*_]{1,2}|<)?\s*scope[ _-]?(?:notes?|waivers?|exceptions?|justifications?|rationale|sanity|acknowledg(?:e?ment)s?)\b/i

/** The lines of notes that accept the plan's task count and its file count, if any: the first of each. */
interface Waivers {
  tasks?: number
  files?: number
}

/**
 * The notes in which the plan's author accepts its size (GSD's orchestrator lets the user proceed past the
 * checker's issues, "Force proceed", and records "Passed with override"; the plan's note says why). A note is a
 * paragraph, a list item or a frontmatter entry, outside code, that names the count and the checker's finding or the
 * limit, and accepts it, or is labelled a scope note; a note of the plan's size as a whole accepts both counts.
 */
function waiversOf(document: PlanDocument): Waivers {
  const waivers: Waivers = {}
  const frontmatterEnd = document.frontmatter?.range[1] ?? 0
  let note: string[] = []
  let noteLine = 0
  let labelled = false
  let section = false
  let tag = false
  let key = false
  const close = () => {
    const text = note.join(' ')
    note = []
    if (text === '' || !limitWord.test(text) || !(labelled || acceptWord.test(text))) return
    const size = planSize.test(text)
    if (waivers.tasks === undefined && (size || taskCount.test(text))) waivers.tasks = noteLine
    if (waivers.files === undefined && (size || fileCount.test(text))) waivers.files = noteLine
  }
  const starts = document.lines.lineStarts
  for (let index = 0; index < starts.length; index++) {
    const start = starts[index]!
    const line = document.text.slice(start, starts[index + 1] ?? document.text.length).replace(/\r?\n$|\r$/, '')
    if (document.fenced.holding(start) || /^\s*(?:\||---\s*$)/.test(line)) {
      close()
      continue
    }
    const inFrontmatter = start < frontmatterEnd
    const heading = !inFrontmatter && /^#{1,6}\s/.test(line)
    const topKey = inFrontmatter && /^[\w-]{1,80}\s*:/.test(line)
    if (line.trim() === '' || heading || topKey || /^\s*(?:[-*+]|\d{1,9}[.)])\s/.test(line)) close()
    if (heading) section = scopeLabel.test(line)
    if (topKey) key = scopeLabel.test(line)
    if (/<scope[_-]?notes?>/i.test(line)) tag = true
    if (line.trim() !== '' && !heading) {
      if (note.length === 0) {
        noteLine = index + 1
        // Labelled by its own lead, or by the heading, the tag or the frontmatter key it is under.
        labelled = scopeLabel.test(line.trim()) || section || tag || (inFrontmatter && key)
      }
      note.push(line)
    }
    if (/<\/scope[_-]?notes?>/i.test(line)) {
      close()
      tag = false
    }
  }
  close()
  return waivers
}

interface Excess {
  message: string
  /** The limit as the message states it: `at most 4`, or the size plans are made for. */
  limit: string
  /** `warning` in the band below the limit; above it, the severity the rule runs at. */
  severity?: 'warning'
}

/** A finding after the notes that accept it: `note` is the line of the note that made it a warning. */
interface Accepted<Finding extends Excess> {
  excess: Finding
  note?: number
}

/**
 * A finding after a note that accepts it (on line `note`), which lowers it a step, as GSD's override passes the
 * checker's issues: an error becomes a warning, and a warning, all the checker would say, goes.
 */
function accepted<Finding extends Excess>(excess: Finding | undefined, note: number | undefined): Accepted<Finding> | undefined {
  if (!excess) return undefined
  if (note === undefined) return {excess}
  return excess.severity === 'warning' ? undefined : {excess: {...excess, severity: 'warning'}, note}
}

/** What a message says of the notes that accept it, on these lines. */
function acceptance(lines: number[]): string {
  const distinct = [...new Set(lines)]
  const where = distinct.length === 1 ? `the scope note on line ${distinct[0]} accepts` : `the scope notes on lines ${andList(distinct.map(String))} accept`
  return `${where} that, so this is a warning`
}

/** The task count a split aims at: the warning's threshold, else the limit. */
function target(options: Options): number {
  return Math.min(options.max, options.warnAbove || options.max)
}

/** Whether a plan has more tasks than its limits, with the first task over them. */
function taskFinding(tasks: Range[], options: Options, aside: string): (Excess & {index: number}) | undefined {
  if (options.max > 0 && tasks.length > options.max) {
    return {
      message: `This plan has ${tasks.length} tasks${aside} (at most ${options.max}): split it into plans of ${target(options)} or fewer; this is task ${options.max + 1}`,
      limit: `at most ${options.max}`,
      index: options.max
    }
  }
  if (options.warnAbove > 0 && tasks.length > options.warnAbove) {
    return {
      message: `This plan has ${tasks.length} tasks${aside} (plans are sized for ${options.warnAbove} or fewer, as quality drops while the executor's context fills): consider splitting it; this is task ${options.warnAbove + 1}`,
      limit: `plans are sized for ${options.warnAbove} or fewer`,
      severity: 'warning',
      index: options.warnAbove
    }
  }
  return undefined
}

/** Whether a plan modifies more files than its limits. */
function fileFinding(count: number, options: Options): Excess | undefined {
  if (options.maxFiles > 0 && count > options.maxFiles) {
    return {message: `This plan modifies ${count} files (at most ${options.maxFiles}): split it into plans that each touch fewer files`, limit: `at most ${options.maxFiles}`}
  }
  if (options.warnFilesAbove > 0 && count > options.warnFilesAbove) {
    return {message: `This plan modifies ${count} files (plans are sized for ${options.warnFilesAbove} or fewer): consider splitting it`, limit: `plans are sized for ${options.warnFilesAbove} or fewer`, severity: 'warning'}
  }
  return undefined
}

/**
 * Plans are sized so the executor finishes them in one fresh context: GSD's
 * plan checker warns at 4 tasks or 10 files and blocks at 5 tasks or 15
 * files, Plan-Build-Run rejects a fourth task. Quality drops as the context
 * fills, so an oversized plan is split, not squeezed. A Plan-Build-Run plan
 * without tasks gives its executor nothing to run.
 */
export default defineRule<Options>({
  id: 'max-tasks',
  description: 'A plan has no more tasks and files than its workflow sizes a plan for (and, when set, no fewer tasks than the minimum).',
  severity: 'error',
  kinds: ['plan'],
  defaultOptions: {max: 4, warnAbove: 3, min: 0, maxFiles: 14, warnFilesAbove: 9},
  check({document, options, report}) {
    const {tasks, all, leftOut, alternatives} = tasksOf(document)
    // What was left out of the count, so the number matches what the author sees.
    const aside = [leftOut.length > 0 ? `besides ${andList(leftOut)}` : '', alternatives ? 'alternatives counted once' : '']
      .filter(Boolean)
      .join(', ')
    // The minimum is of `<task>` blocks, checkpoints included: a plan of one checkpoint has its task.
    if (all < options.min) {
      const body = document.frontmatter?.range[1] ?? 0
      report({
        message:
          all === 0
            ? 'This plan has no `<task>` blocks: the executor runs a plan\'s tasks and nothing else, so write its work as `<task>` blocks'
            : `This plan has ${all} tasks (at least ${options.min}): merge it into a neighbouring plan, or split its work into more tasks`,
        range: [body, body]
      })
    }
    const taskExcess = taskFinding(tasks, options, aside ? ` ${aside}` : '')
    const fileExcess = filesOver(document, options)
    const waivers = taskExcess || fileExcess ? waiversOf(document) : {}
    const overTasks = accepted(taskExcess, waivers.tasks)
    const files = fileExcess && accepted(fileExcess.excess, waivers.files)
    if (overTasks && files && fileExcess) {
      // One cause (the plan's scope), one message: at `files_modified`, with the higher severity.
      const taskOver = tasks[overTasks.excess.index]
      const bothAccepted = overTasks.note !== undefined && files.note !== undefined
      const accepts = (over: Accepted<Excess>) => (over.note !== undefined && !bothAccepted ? `, which the scope note on line ${over.note} accepts` : '')
      const counts = `This plan has ${tasks.length} tasks${aside ? ` ${aside}` : ''} (${overTasks.excess.limit}${accepts(overTasks)}) and modifies ${fileExcess.count} files (${files.excess.limit}${accepts(files)})`
      const split = `plans of ${target(options)} or fewer tasks that each touch fewer files; task ${overTasks.excess.index + 1} is on line ${lineOf(document, taskOver[0])}`
      report({
        message: bothAccepted ? `${counts}; ${acceptance([overTasks.note!, files.note!])}: consider splitting it into ${split}` : `${counts}: split it into ${split}`,
        range: fileExcess.range,
        ...(overTasks.excess.severity && files.excess.severity ? {severity: overTasks.excess.severity} : {})
      })
      return
    }
    if (overTasks) {
      const {excess, note} = overTasks
      const message =
        note === undefined
          ? excess.message
          : `This plan has ${tasks.length} tasks${aside ? ` ${aside}` : ''} (${excess.limit}); ${acceptance([note])}: consider splitting it into plans of ${target(options)} or fewer; this is task ${excess.index + 1}`
      report({message, range: tasks[excess.index], severity: excess.severity})
    }
    if (files && fileExcess) {
      const {excess, note} = files
      const message = note === undefined ? excess.message : `This plan modifies ${fileExcess.count} files (${excess.limit}); ${acceptance([note])}: consider splitting it`
      report({message, range: fileExcess.range, severity: excess.severity})
    }
  }
})
