import type {PlanDocument} from '../src/model/document.js'
import {yamlErrorIn} from '../src/model/frontmatter.js'
import {child, descendants, type Element} from '../src/model/markup.js'
import {andList, blankTags, filesModified, normalizePath, outsideRepository, pathCovers, sameFile, taskPaths, taskTitle, taskType, withoutTaskNumber, type PathEntry} from '../src/plan.js'
import {firstAtLeast, SortedRanges} from '../src/model/text.js'
import {pushTo} from '../src/lists.js'
import {defineRule} from '../src/rule.js'

interface Options {
  /** Also report `files_modified` entries that no task's `<files>` names. */
  unlisted: boolean
}

/**
 * `files_modified` is what the orchestrator reads to keep plans of one wave
 * off each other's files; a task that edits a file missing there can collide
 * with a parallel plan. Each task's `<files>` must be in it.
 */
/** The paths as a reader names them in a message: the first few, then how many more. */
function pathList(entries: PathEntry[]): string {
  const shown = entries.slice(0, 4).map((entry) => `\`${entry.path}\``)
  if (entries.length > 4) return `${shown.join(', ')} and ${entries.length - 4} more`
  return andList(shown)
}

/** A secrets file of the `.env` family (`.env`, `.env.local`, `.env.production.local`), gitignored; not `.env.example` and its kin, which are committed. */
const secretsFile = /(?:^|\/)\.env(?:\.(?!example$|sample$|template$|dist$|defaults?$)[\w.-]+)?$/

/**
 * A word of an edit, in the languages plans are written in (English,
 * Portuguese, Spanish, French, Russian, Chinese, Japanese): a line with one
 * changes the file it names.
 */
const editWord = new RegExp(
  [
    String.raw`\b(?:add|append|prepend|create|edit|modify|modifie|update|write|rewrite|overwrite|replace|remove|delete|change|fix|extend|insert|implement|rename|move|generate|regenerate|refactor|register|wire|export|populate|bump|patch|amend|adjust|rebuild|restyle|polish|uncomment|introduce|migrate|convert|drop|strip|fill|install|scaffold|swap|tweak|correct|mutate|save|commit)(?:s|es|d|ed|ing)?\b`,
    String.raw`\b(?:wrote|written|set up|un-?ignore\w{0,3}|comment(?:s|ed)? out)\b`,
    String.raw`\b(?:gerar|gera|regenerar|regenera|reconstruir|generar|genera|criar|crie|adicionar|adicione|atualizar|atualize|modificar|modifique|alterar|altere|corrigir|corrija|editar|edite|escrever|escreva|remover|remova|substituir|substitua|implementar|implemente|crear|cree|añadir|agregar|actualizar|cambiar|eliminar|reemplazar|escribir|créer|ajouter|modifier|corriger|écrire|supprimer|remplacer|mettre à jour)\b`,
    String.raw`(?<!\p{L})(?:созда|добав|обнов|измен|исправ|напиш|написа|перепиш|удал|замен|реализ|расшир|сгенер)\p{L}{0,6}`,
    '创建|新建|添加|追加|修改|修订|更新|编写|写入|删除|替换|实现|改为|扩展|补齐|重写|生成|重建|作成|修正|変更|削除|置換|実装'
  ].join('|'),
  'giu'
)
/** A shell command that writes the file it names: a redirect, an in-place edit, a copy, move or removal. */
const shellWrite = /(?<=[\w"')\]]\s?)>>?\s*[\w./~$"'-]|\bsed\s+-i|\b(?:cp|mv|rm|touch|tee|mkdir|git\s+(?:mv|rm|add))\s/g
/** A word of denial before an edit word ("do NOT modify", "no changes needed", "不修改", "не изменять"). */
const denial = /(?:\b(?:no|not|never|without|nothing|none|não|nao|nenhum|sem|sin|sans|ne)\b|n't\b|(?<!\p{L})(?:не|без)(?!\p{L})|不|无需|无|没有|しない)[^.,;:\n]{0,40}$/iu
/**
 * A fix of whatever a check finds ("fix any errors that appear", "fix any failures", "fix whatever fails"), read from an
 * edit word: the deviation any task may make, as "If any check fails, fix it" is, not an edit of a file the task names.
 */
const fixWhatFails =
  /^(?:fix|correct|resolve|address)(?:es|ed|ing|s)?[ \t]+(?:any|whatever)(?:[ \t]+[\w-]{1,20}){0,2}?[ \t]+(?:errors?|failures?|issues?|problems?|warnings?|regressions?|findings?|breakages?)\b|^fix(?:es|ed|ing)?[ \t]+(?:whatever|anything)[ \t]+(?:that[ \t]+)?(?:fails|breaks)\b/i
/** The `if` of a line about a failing check ("If any check fails, fix it"), and up to the nearest word of failure after it: the deviation any task may make, not the plan's edit. */
const onFailure = /\bif\b(?=([^\n]{0,80}?\b(?:fail|fails|failed|failing|errors?)\b))/gi

/** Places in a line, as their starts and ends: the starts ascending, and so the ends (the places are apart, or share an end). */
interface Places {
  starts: number[]
  ends: number[]
}

/**
 * Where a line asks for an edit, found once a line: the edit words no denial comes before, the shell writes,
 * and the `if`s of a failing check. A part of the line (the clause after each file it names) is then judged
 * by a binary search, not by a scan of the rest of the line.
 */
interface EditPlaces {
  edits: Places
  writes: Places
  failures: Places
  /** The line with its code spans blanked, as the edit words were read in it. */
  prose: string
}

function places(matches: Iterable<RegExpMatchArray>, length: (match: RegExpMatchArray) => number): Places {
  const found: Places = {starts: [], ends: []}
  for (const match of matches) {
    found.starts.push(match.index!)
    found.ends.push(match.index! + length(match))
  }
  return found
}

/** A line with its code spans (`` `a.test.ts` ``) turned into spaces of the same length, so offsets into it stay exact. */
function blankCodeSpans(line: string): string {
  return line.replace(/`[^`\n]*`/g, (code) => ' '.repeat(code.length))
}

function editPlaces(line: string): EditPlaces {
  // Code quoted in the line (`export const VERSION`) is what a check looks for, not an edit.
  const prose = blankCodeSpans(line)
  const undenied = [...prose.matchAll(editWord)].filter(
    (match) => !denial.test(prose.slice(Math.max(0, match.index - 60), match.index)) && !fixWhatFails.test(prose.slice(match.index, match.index + 80))
  )
  return {
    edits: places(undenied, (match) => match[0].length),
    writes: places(blankTags(line).matchAll(shellWrite), (match) => match[0].length),
    failures: places(line.matchAll(onFailure), (match) => match[0].length + match[1].length),
    prose
  }
}

/** Whether one of the places lies in `[start, end)`: the first that starts there ends first. */
function holdsOne({starts, ends}: Places, start: number, end: number): boolean {
  const first = firstAtLeast(starts, start)
  return first < starts.length && ends[first] <= end
}

/** Whether `[start, end)` of a line asks for an edit: an edit word no denial comes before, or a shell write; a line about a failing check does not. */
function asksForEditIn(line: EditPlaces, start: number, end: number): boolean {
  if (holdsOne(line.failures, start, end)) return false
  return holdsOne(line.writes, start, end) || holdsOne(line.edits, start, end)
}

/** Whether a line asks for an edit. */
function asksForEdit(line: string): boolean {
  return asksForEditIn(editPlaces(line), 0, line.length)
}

/** Where a line reads, runs or uses a file: `Read`, `grep`, `bash scripts/x.sh`, `docker build -f`, "through `scripts/deploy.sh`". */
const readsOrRuns =
  /(?<![\w./-])(?:read|reads|reading|open|inspect|review|check|confirm|verify|grep|rg|cat|head|tail|wc|ls|diff|compare|through|via|run|runs|execute|executes|invoke|bash|sh|zsh|pwsh|node|python3?|bun|deno|tsx|npx|docker|tsc|pytest|vitest|jest|source|readFileSync|ler|leia|executar|verificar|confirmar)(?![\w./-])|\btest\s+-[efsd]\b|\bno (?:code )?changes? (?:needed|required)\b|\bread[- ]only\b|\bunchanged\b/i
/** The words a check's name starts with (`Verify …`, `Confirm …`, `Pre-flight check`, `Verificar …`). */
const checkName =
  /^(?:verify|verification|verifying|confirm|check|validate|validation|audit|smoke[- ]test|pre-?flight|post-\w+ verification|run (?:the )?(?:tests?|test suite|suite|checks?|benchmarks?)|verificar|confirmar|validar|comprobar|vérifier|провер\p{L}*|验证|确认|检查)(?!\p{L})/iu
/** A task saying it changes nothing: "No code changes in this task", "this task is read-only", "does not modify any file", "无需修改任何文件". */
const changesNothing =
  /\bno (?:code|file|source) (?:changes?|edits?|modifications?)\b|\b(?:makes?|requires?|needs?) no (?:code |file )?(?:changes?|edits?)\b|\b(?:this )?task (?:is )?(?:read[- ]only|verification[- ]only|verify[- ]only)\b|\bread[- ]only (?:task|verification|check|audit|pass|step|gate)\b|\b(?:does|do|will|must) not (?:modify|change|edit|write|touch) any (?:files?|code|source)\b|\bmodif(?:y|ies) no files?\b|\bnão de modificação\b|(?:无需|不)修改任何文件/iu

/** Elements whose text says what a task must end with, not what it does: their file names are checks. */
const checkElements = new Set(['files', 'read_first', 'verify', 'automated', 'done', 'acceptance_criteria', 'success_criteria', 'output'])

/** The lines of what a task does (its name, action, behaviour, prose), without its file lists and checks. */
function workLines(document: PlanDocument, task: Element): string[] {
  const [start, end] = task.contentRange
  let text = document.text.slice(start, end)
  for (const element of descendants(task)) {
    if (!checkElements.has(element.name)) continue
    const [from, to] = [element.range[0] - start, element.range[1] - start]
    text = text.slice(0, from) + text.slice(from, to).replace(/[^\n]/g, ' ') + text.slice(to)
  }
  return text.split('\n').filter((line) => line.trim() !== '')
}

/** Whether a task's files are what it reads: it says it changes nothing, or it is a check whose work asks for no edit. */
function readsOnly(document: PlanDocument, task: Element, lines: string[], paths: string[]): boolean {
  const names = paths.map((path) => path.slice(path.lastIndexOf('/') + 1)).filter(Boolean)
  const aboutAFile = (line: string) => names.some((name) => line.includes(name))
  // Said of the whole task, and no line of it edits one of its files.
  if (lines.some((line) => changesNothing.test(line) && !aboutAFile(line)) && !lines.some((line) => aboutAFile(line) && asksForEdit(line))) return true
  return checkName.test(taskName(document, task)) && !lines.some(asksForEdit)
}

/** A task's name without its number, so that it starts with its first word. */
function taskName(document: PlanDocument, task: Element): string {
  // A name in bold (`**Task 3:** Verify the build`) hides its number from `taskTitle`, and so its first word.
  return withoutTaskNumber(taskTitle(document, task).replace(/\*\*|__/g, ''))
}

/** A build's output folder by its conventional name (`dist/`, `.next/`, `target/`): the rule sees no `.gitignore`. */
const outputFolder = /(?:^|\/)(?:dist|build|out|target|coverage|\.next)(?:\/|$)/
/** The words a build's name starts with (`Build the installer`, `Rebuild dist/`, `Собрать backend.exe`). */
const buildName = /^(?:build|rebuild|compile|bundle|package|собрать|собери|пересобрать|reconstruir|compilar|construir|构建|编译)(?!\p{L})/iu

/**
 * Whether a task is a check or a build: what it names under a build's output folder is what the build writes, not
 * a source it edits, even where the task rebuilds it.
 */
function checksOrBuilds(document: PlanDocument, task: Element): boolean {
  const name = taskName(document, task)
  return checkName.test(name) || buildName.test(name)
}

/**
 * The output folder a path lies in (`web/.next/` for `web/.next/trace`), or undefined: build outputs are ignored by
 * the repository, so each worktree builds its own and no parallel plan collides on them.
 */
function outputFolderOf(path: string): string | undefined {
  const file = normalizePath(path)
  const match = outputFolder.exec(file)
  if (!match) return undefined
  const end = match.index + match[0].length
  return file[end - 1] === '/' ? file.slice(0, end) : `${file.slice(0, end)}/`
}

/** A test file: `a.test.ts`, `a_test.go`, `test_a.py`, `tests/…`. */
const testFile = /(?:^|[/._-])(?:tests?|spec|__tests__)(?:[/._-]|$)/

/** A character of a path as a line writes it. */
const pathChar = /[\w./@~-]/
/** What cannot be in a folder name in brackets: white space, quotes, slashes and other brackets. */
const notInBrackets = /[\s`'"/\\()[\]]/

/**
 * Where the path holding a file name that starts at `at` starts, read back no further than `floor`: path characters,
 * and folders in brackets as `<files>` reads them, a Next.js route group or intercepting route (`(dashboard)/`,
 * `(..)photo/`) and a dynamic segment (`[id]/`, `[[...slug]]/`), so `src/app/(dashboard)/page.tsx` is that path, not
 * `/page.tsx`.
 */
function pathStart(line: string, at: number, floor: number): number {
  let from = at
  while (from > floor) {
    const char = line[from - 1]
    if (pathChar.test(char)) from--
    else if (char === ')' || char === ']') {
      const open = bracketOpen(line, from - 1, floor)
      if (open === -1) break
      from = open
    } else break
  }
  return from
}

/** Where the folder name closing at `close` (`)` or `]`) opens, at most 40 characters back and no further than `floor`; -1 if it is no folder name (empty, or a space, quote or slash comes first). */
function bracketOpen(line: string, close: number, floor: number): number {
  const [opening, closing] = line[close] === ')' ? ['(', ')'] : ['[', ']']
  let depth = 0
  for (let index = close; index >= Math.max(floor, close - 40); index--) {
    const char = line[index]
    if (char === closing) depth++
    // `[[...slug]]` closes twice, and opens twice.
    else if (char === opening) {
      if (--depth === 0) return close - index > 1 ? index : -1
    } else if (notInBrackets.test(char)) return -1
  }
  return -1
}

/** A file name's stem in code's case, with a capital inside it (`jsonldFramer`, `MailQueue`): no word of prose. */
const codeCaseStem = /^[A-Za-z][A-Za-z0-9]{0,80}$/

/**
 * Where a line names a file: the path, or a shorter or longer form of it (`route.ts`, `app/api/route.ts`,
 * `/root/app/src/app/api/route.ts`), not another file of the same name; and its stem in code's case on its own
 * (`exercise jsonldFramer`), as code and the prose about it name a module.
 */
function fileMentions(line: string, path: string): Array<[number, number]> {
  const found = pathMentions(line, path)
  const file = normalizePath(path)
  const base = file.slice(file.lastIndexOf('/') + 1)
  const stem = base.replace(/\.[^.]*$/, '')
  // A folder's or an extension-less file's name is named by its path only.
  if (stem === base || stem.length < 6 || !codeCaseStem.test(stem) || !/[a-z][A-Z]/.test(stem)) return found
  const stems = wordPlaces(line, stem)
  if (stems.length === 0) return found
  return [...found, ...stems].sort((a, b) => a[0] - b[0])
}

/** Where a line names a file by its path, or a shorter or longer form of it. */
function pathMentions(line: string, path: string): Array<[number, number]> {
  const file = normalizePath(path)
  const base = file.slice(file.lastIndexOf('/') + 1)
  // A name without an extension (`Makefile`, `build`) is also a word of prose: only the whole path names the file.
  const sought = base.includes('.') ? base : file
  const found: Array<[number, number]> = []
  if (sought === '') return found
  // Where the last mention found is, where its path starts and where it starts without its leading `./`s: a mention in the
  // same path (`a.md/a.md`) starts there too, so no character is scanned back or normalised twice.
  let previous = -1
  let previousFrom = 0
  let previousStart = 0
  for (let at = line.indexOf(sought); at !== -1; at = line.indexOf(sought, at + 1)) {
    const end = at + sought.length
    // A longer name goes on after it (`notes.md.bak`, `notes.mdx`, `Makefile-old`); a sentence's full stop does not. A folder goes on into its files.
    if (!sought.endsWith('/') && (/[\w-]/.test(line[end] ?? '') || (line[end] === '.' && /[\w-]/.test(line[end + 1] ?? '')))) continue
    const scanned = pathStart(line, at, Math.max(previous, 0))
    let [from, start] = [scanned, scanned]
    if (scanned === previous) [from, start] = [previousFrom, previousStart]
    else while (line.startsWith('./', start)) start += 2
    previous = at
    previousFrom = from
    previousStart = start
    // The path as `normalizePath` has it (no white space or backslash is in it but at the start of the name sought);
    // one longer than the file can only end in `/` and the file, and only its end is compared.
    if (end - start > file.length + 1 ? line.startsWith(`/${file}`, end - file.length - 1) : sameFile(file, from === start ? line.slice(start, end).trim() : line.slice(start, end))) {
      found.push([from, end])
    }
  }
  return found
}

/** A module a line of code imports or re-exports: `from './tokens'`, `import '@/lib/env'`, `require("../db")`. */
const importSpecifier = /\b(?:from|import|require\()\s*['"]([^'"\n]{1,200})['"]/g
/** The start of a specifier that names a file of the project: relative, or under an alias of its root (`@/`, `~/`, `#/`, `$lib/`); not a package. */
const localSpecifier = /^(?:(?:\.\.?\/)+|[@~#]\/|\$lib\/)/

/** Where a line imports a file: a specifier naming it without its extension (`./tokens` for `src/search/tokens.ts`, `@/lib/db` for `src/lib/db/index.ts`). */
function importsOf(line: string, path: string): Array<[number, number]> {
  const file = normalizePath(path).replace(/\.(?:[cm]?[jt]sx?|vue|svelte)$/, '')
  const found: Array<[number, number]> = []
  for (const match of line.matchAll(importSpecifier)) {
    const local = localSpecifier.exec(match[1])
    const module = local ? match[1].slice(local[0].length).replace(/\.(?:[cm]?[jt]sx?)$/, '').replace(/\/$/, '') : ''
    if (module === '') continue
    if ([module, `${module}/index`].some((name) => file === name || file.endsWith(`/${name}`))) found.push([match.index, match.index + match[0].length])
  }
  return found
}

/**
 * Words before a file that point the reader to it: "importing the type from", "the tests import", "exercise", "see", "mirror
 * the pattern in", "as in", "use the existing mock in" (a helper there already, used as it is).
 */
const pointsTo =
  /(?:\bimport(?:s|ed|ing)?(?:\b[^\n.;]{0,60}?\bfrom)?|\bexercis(?:e|es|ed|ing)|\b(?:(?:re)?us(?:e|es|ed|ing)|with) (?:the |an? )?existing(?: [\w -]{0,30}? (?:in|from|at|of))?|\b(?:see|refer to|consult|as in|(?:mirror|follow|match)(?:s|ed|ing|es)?(?: the [\w -]{0,30}? (?:in|of|from))?|based on|copied from|same as|(?:patterns?|approach|conventions?|examples?|style|shape) (?:in|of|from|used in)))\s?\(?[`'"]?$/i

/**
 * A test runner's command (`pytest`, `npx vitest run`, `go test`, `node --test`, `npm run test:unit --`): the paths right
 * after it, among its flags, are the tests it runs.
 */
const testRunner =
  /(?<![\w./-])(?:py\.?test|vitest(?: run)?|jest|mocha|ava|playwright test|(?:go|cargo|bun|deno|dotnet|swift|flutter|dart|mix) test|node --test|(?:npm|pnpm|yarn|bun) (?:run )?test(?::[\w-]{1,30})?|phpunit|rspec)(?![\w./-])/g

/** Whether text between a test runner and a path holds its arguments only: flags (`-k`, `--run`, `-x`), a flag's value (`-k boundary`, `-k "a or b"`), other paths. */
function runnerArguments(text: string): boolean {
  let flagValue = false
  for (const token of text.replace(/(["'])[^"'\n]{0,100}\1/g, 'quoted').split(/\s+/)) {
    if (token === '') continue
    // The end of the command, or of the sentence: what comes after is not the runner's.
    if (/[`;|&()]|[.,]$/.test(token)) return false
    if (token.startsWith('-')) flagValue = !token.includes('=')
    else if (/[/.:*]/.test(token) || flagValue) flagValue = false
    else return false
  }
  return true
}

/** Where each test runner's command of a line ends: its arguments start there. */
function runnerEnds(line: string): number[] {
  return [...line.matchAll(testRunner)].map((match) => match.index + match[0].length)
}

/** Whether a line's mention of a file at `from` is a path a test runner is given: `pytest tests/test_x.py`, `npx vitest run src/a.test.ts`. */
function runBy(line: string, ends: number[], from: number): boolean {
  const end = ends[firstAtLeast(ends, from + 1) - 1]
  return end !== undefined && from - end <= 200 && runnerArguments(line.slice(end, from))
}

/**
 * Words saying a file needs no edit: "no change needed", "already accepts …", "is already wired", "unchanged", "leave …
 * as is", "was added by plan 02-02" (an earlier plan's work).
 */
const needsNothing =
  /\bno (?:code |further |other |file )?(?:changes?|edits?|modifications?)(?: (?:is|are))? (?:needed|required|necessary)\b|\bnothing to change\b|\b(?:unchanged|untouched)\b|\b(?:leave|leaves|keep|keeps|stays?|remains?)\b[^;\n]{0,60}?\bas[- ]is\b|\balready (?:[a-z]{2,20}s|is|are|have|do|in place)\b|\b(?:is|are) already\b|\b(?:was|were) (?:already )?(?:added|created|written|shipped|implemented|done) (?:by|in) (?:plan|phase|task|an? (?:earlier|previous|prior))\b/gi

/**
 * Whether the words around a line's mention of a file (`[from, to)`) say it needs no edit: its sentence, or the next
 * one when that names no other file ("`emit.py` already accepts a Plan. No change needed."), says so, and asks for no
 * edit but in those words. The line is read once; each mention looks at no more than a few hundred characters around
 * it, so a line of many mentions costs its length.
 */
function leftAsIsIn(line: string, edits: EditPlaces): (from: number, to: number) => boolean {
  const prose = edits.prose
  const said = places(prose.matchAll(needsNothing), (match) => match[0].length)
  if (said.starts.length === 0) return () => false
  const ends = [...prose.matchAll(/[.;!?](?=\s|$)/g)].map((match) => match.index)
  /** The said span holding `at`, if any: the last one starting at or before it. */
  const inSaid = (at: number) => {
    const index = firstAtLeast(said.starts, at + 1) - 1
    return index >= 0 && at < said.ends[index]
  }
  const asked = (places: Places, start: number, end: number) => {
    for (let index = firstAtLeast(places.starts, start); index < places.starts.length && places.starts[index] < end; index++) {
      if (!inSaid(places.starts[index])) return true
    }
    return false
  }
  return (from, to) => {
    const start = Math.max((ends[firstAtLeast(ends, from) - 1] ?? -1) + 1, from - 200)
    const own = firstAtLeast(ends, to)
    const ownEnd = Math.min(ends[own] ?? line.length, to + 200)
    // The next sentence may edit the file ("Add `emitAll` next to it."); its words speak for the file only when it names no other.
    const end = Math.min(ends[own + 1] ?? line.length, ownEnd + 200)
    const saidEnd = /[`/]|\w\.\w/.test(line.slice(ownEnd + 1, end)) ? ownEnd : end
    const first = firstAtLeast(said.ends, start + 1)
    if (first >= said.starts.length || said.starts[first] >= saidEnd) return false
    return !asked(edits.edits, start, end) && !asked(edits.writes, start, end)
  }
}

/**
 * Whether a line only reads, runs or looks up a file: each place it names the file is an import, a test a runner is given,
 * or follows words pointing the reader to it, with no edit in the rest of its clause, or is said to need no edit.
 */
function onlyPointsTo(line: string, path: string): boolean {
  const imports = new SortedRanges(importsOf(line, path))
  const named = fileMentions(line, path).filter(([from]) => !imports.holding(from))
  if (imports.ranges.length + named.length === 0) return false
  const edits = editPlaces(line)
  const runners = runnerEnds(line)
  const clauseEnds = [...line.matchAll(/[.;,)]/g)].map((match) => match.index)
  const leftAsIs = leftAsIsIn(line, edits)
  return named.every(([from, to]) => {
    if (leftAsIs(from, to)) return true
    if (!runBy(line, runners, from) && !pointsTo.test(line.slice(Math.max(0, from - 120), from))) return false
    const clauseEnd = clauseEnds[firstAtLeast(clauseEnds, to)] ?? line.length
    return !asksForEditIn(edits, to, clauseEnd)
  })
}

/** A word for tests (`a test`, `test cases`, `the spec`), not a part of a path or a flag (`a.test.ts`, `--test`). */
const testWord = /(?<![\w./-])(?:tests?|specs?|assertions?|testes|pruebas?|测试|テスト)(?![\w./-])/iu

/** Whether a task asks for tests to be written: an edit word with a word for tests in its clause ("write a test for", "add test cases", "update the tests"). */
function asksForTests(lines: string[]): boolean {
  return lines.some((line) => {
    // Code quoted in the line (`npx vitest run a.test.ts`) is the run, not words for tests.
    const {edits, prose} = editPlaces(line)
    return edits.ends.some((end) => testWord.test(prose.slice(end, end + 40).split(/[.;:]/, 1)[0]))
  })
}

/**
 * Where a line names a word (a file's name without its extension, `R2Service`) on its own: not inside a longer name or
 * path, nor as the start of a file name (`R2Service.ts`, `R2Service.test.ts`, which name their files); a sentence's
 * full stop may follow it.
 */
function wordPlaces(line: string, word: string): Array<[number, number]> {
  const found: Array<[number, number]> = []
  for (let at = line.indexOf(word); at !== -1; at = line.indexOf(word, at + 1)) {
    const next = line[at + word.length] ?? ''
    if (/[\w./-]/.test(line[at - 1] ?? '') || /[\w-]/.test(next) || (next === '.' && /\w/.test(line[at + word.length + 1] ?? ''))) continue
    found.push([at, at + word.length])
  }
  return found
}

/** Whether a line names a word on its own (`wordPlaces`). */
function namesWord(line: string, word: string): boolean {
  return wordPlaces(line, word).length > 0
}

/** Whether a task only reads or runs one of its files: each line of its work naming the file reads, runs, imports or points to it, and none edits it. */
function onlyReadsFile(task: Element, lines: string[], path: string): boolean {
  // A TDD task runs the tests it writes.
  if (testFile.test(path) && (child(task, 'behavior') || task.attributes.some((attribute) => attribute.name === 'tdd' && attribute.value === 'true'))) return false
  const named = lines.filter((line) => fileMentions(line, path).length > 0 || importsOf(line, path).length > 0)
  // A line that ends in a colon heads the lines that say what is done to the file.
  const reads = (line: string) => fileMentions(line, path).length > 0 && readsOrRuns.test(line) && !asksForEdit(line) && !/:[*\s]*$/.test(line)
  if (named.length === 0 || !named.every((line) => reads(line) || onlyPointsTo(line, path))) return false
  // A task that asks for tests writes the test file it runs, though it names the file only in the run.
  if (testFile.test(path) && named.some((line) => line.search(testRunner) !== -1) && asksForTests(lines)) return false
  // Code that imports a module names it without its extension, and so may the prose that edits it ("Add a method to R2Service").
  const file = normalizePath(path)
  const stem = file.slice(file.lastIndexOf('/') + 1).replace(/\.[^.]*$/, '')
  const imported = named.some((line) => importsOf(line, path).length > 0)
  return !imported || !lines.some((line) => importsOf(line, path).length === 0 && namesWord(line, stem) && asksForEdit(line))
}

/** A frontmatter key listing files the plan only reads: `files_referenced_readonly`, `files_read`, `read_only_files`, `context_files`. */
function listsReadFiles(key: string): boolean {
  const words = key.toLowerCase().split(/[_\s-]+/)
  return words.some((word) => ['file', 'files', 'paths'].includes(word)) && words.some((word) => readWords.has(word))
}
const readWords = new Set(['read', 'reads', 'readonly', 'referenced', 'reference', 'references', 'refs', 'consulted', 'context'])

/** Whether one list names the other's path: the same file, a glob or folder holding it, or its bare file name. */
function names(list: PathEntry[], entry: PathEntry): boolean {
  const bareName = !entry.path.includes('/')
  return list.some(
    (item) => pathCovers(item.path, entry.path) || pathCovers(entry.path, item.path) || (bareName && item.path.endsWith(`/${entry.path}`))
  )
}

/**
 * Whether a read-only list names a path: the same file, or a bare name for it on either side; a folder or glob
 * there is what the plan reads, and does not say the files under it are unwritten.
 */
function readList(list: PathEntry[], entry: PathEntry): boolean {
  const path = normalizePath(entry.path)
  return list.some((item) => {
    const read = normalizePath(item.path)
    return read === path || (!read.includes('/') && path.endsWith(`/${read}`)) || (!path.includes('/') && read.endsWith(`/${path}`))
  })
}

/** The keys that declare what a plan writes: GSD keeps same-wave plans apart by `files_modified` + `files_deleted`; some trees list new files under `files_created`. */
const declaringKeys: readonly string[] = ['files_modified', 'files_deleted', 'files_created']

export default defineRule<Options>({
  id: 'files-modified',
  description: "Every path in a task's `<files>` is in `files_modified` (and, optionally, the other way round).",
  severity: 'warning',
  kinds: ['plan'],
  defaultOptions: {unlisted: false},
  check({document, options, report}) {
    const frontmatter = document.frontmatter
    if (!frontmatter?.entries.has('files_modified')) return
    // What a list YAML could not read declares is unknown: frontmatter-schema reports the error.
    if (declaringKeys.some((key) => yamlErrorIn(frontmatter, key))) return
    // Planning artifacts (`.planning/…/01-02-SUMMARY.md`) belong to one plan; no parallel plan edits them. A file outside the
    // repository (`/tmp/shot.png`) is in no worktree: no merge collides on it.
    const source = (entry: {path: string}) => !/^(\.\/)?\.planning\//.test(entry.path) && !outsideRepository(entry.path)
    const declared = declaringKeys.flatMap((key) => filesModified(document, key)).filter(source)
    const named = taskPaths(document, 'files').filter(source)
    // Files the plan declares it only reads (`files_referenced_readonly: [...]`) are unwritten by its author's word.
    const declaredRead = [...frontmatter.entries.keys()].filter(listsReadFiles).flatMap((key) => filesModified(document, key))
    // A plan that modifies nothing (`files_modified: []`) names in `<files>` the folders it studies,
    // and a research plan the files it reads too.
    const readOnly = declared.length === 0
    const reads = (entry: PathEntry) =>
      readOnly && (entry.path.endsWith('/') || String(frontmatter.entries.get('type')?.value) === 'research')
    // A human-verify or a decision changes no file: its `<files>` are what the person looks at.
    const looksAt = (entry: (typeof named)[number]) => ['checkpoint:human-verify', 'checkpoint:decision'].includes(taskType(entry.task) ?? '')
    // A gitignored secrets file is filled in on one machine: no worktree merges it, so no parallel plan collides on it.
    // A task that only reads, runs or checks a file does not write it: no plan collides on it.
    // Each task's work and paths, found once a task: a plan of thousands of tasks is read once, not once a path.
    const pathsOf = new Map<Element, string[]>()
    for (const entry of named) pushTo(pathsOf, entry.task, entry.path)
    const work = new Map([...pathsOf.keys()].map((task) => [task, workLines(document, task)]))
    const readOnlyTasks = new Set([...pathsOf].filter(([task, paths]) => readsOnly(document, task, work.get(task) ?? [], paths)).map(([task]) => task))
    const onlyRead = (entry: (typeof named)[number]) => readOnlyTasks.has(entry.task) || onlyReadsFile(entry.task, work.get(entry.task) ?? [], entry.path)
    // A check's or a build's outputs (`dist/cli.js`, `coverage/`) are the build's, unless the plan lists a file in the
    // same output folder: then it commits them (a bundled `dist/index.js`), and a parallel plan's build collides.
    const buildOutput = (entry: (typeof named)[number]) => {
      const folder = outputFolderOf(entry.path)
      return folder !== undefined && checksOrBuilds(document, entry.task) && !declared.some((item) => `${normalizePath(item.path)}/`.startsWith(folder))
    }
    const unwritten = named.filter(
      (entry) =>
        !names(declared, entry) &&
        !readList(declaredRead, entry) &&
        !reads(entry) &&
        !looksAt(entry) &&
        !onlyRead(entry) &&
        !secretsFile.test(normalizePath(entry.path)) &&
        !buildOutput(entry)
    )
    // A path two tasks name is one file to add.
    const firstOf = new Map<string, (typeof unwritten)[number]>()
    for (const entry of unwritten) if (!firstOf.has(normalizePath(entry.path))) firstOf.set(normalizePath(entry.path), entry)
    const missing = [...firstOf.values()]
    if (missing.length > 0) {
      report({
        message:
          missing.length === 1
            ? `\`${missing[0].path}\` is in this task's \`<files>\` but not in \`files_modified\`: add it there, so plans of the same wave do not edit it at once`
            : `${pathList(missing)} are in tasks' \`<files>\` but not in \`files_modified\`: add them there, so plans of the same wave do not edit them at once`,
        range: missing[0].range
      })
    }
    if (!options.unlisted || named.length === 0) return
    const unlisted = declared.filter((item) => !names(named, item))
    if (unlisted.length === 0) return
    report({
      message:
        unlisted.length === 1
          ? `\`${unlisted[0].path}\` is in \`files_modified\` but no task's \`<files>\` names it: add it to the task that edits it, or drop it`
          : `${pathList(unlisted)} are in \`files_modified\` but no task's \`<files>\` names them: add each to the task that edits it, or drop it`,
      range: unlisted[0].range
    })
  }
})
