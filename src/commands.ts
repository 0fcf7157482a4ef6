/**
 * Reading the commands a plan tells a person to type: in fenced blocks, in
 * code spans, on `$ ` prompt lines and after "Run:". The checkpoint rules
 * (`no-automatable-human-action`, `no-cli-in-human-verify`) share it, so both
 * see the same commands in the same places. A command is recognised by its
 * program (the table below), whatever language the prose around it is in.
 */
import type {PlanDocument} from './model/document.js'
import type {Element} from './model/markup.js'
import {SortedRanges, type Range} from './model/text.js'

/** How a command was given; `slash` is a workflow's slash command in a code span (`/gsd:execute-phase 4`), `sql` a statement in an SQL fence. */
export type CommandForm = 'fence' | 'span' | 'prompt' | 'run' | 'slash' | 'sql'

export interface CommandAsk {
  /** The command as written, from its program to its end. */
  text: string
  range: Range
  /** The program and the subcommand words after it (`supabase db push`, `npx prisma migrate deploy`), flags left out; for SQL, `sql` and the statement's keyword. */
  words: string[]
  form: CommandForm
  /** The source line the command stands on; for a fenced command, with the prose line before the fence (which says who runs it). */
  context: string
  /** Where `text` starts in `context`. */
  at: number
}

/**
 * Tests of the lines commands stand on, each run once a line: a line of many
 * commands is read once, not once a command (1 MB of "Run `make a`." took 8 s).
 */
export class LineTests {
  private readonly results = new Map<RegExp, Map<string, boolean>>()
  private readonly lastLines = new Map<string, number>()

  test(regexp: RegExp, text: string): boolean {
    let byText = this.results.get(regexp)
    if (!byText) this.results.set(regexp, (byText = new Map()))
    let result = byText.get(text)
    if (result === undefined) byText.set(text, (result = regexp.test(text)))
    return result
  }

  /** Where a context's last line starts (the line a command stands on, under a fenced command's prose line). */
  lastLineStart(context: string): number {
    let start = this.lastLines.get(context)
    if (start === undefined) this.lastLines.set(context, (start = context.lastIndexOf('\n') + 1))
    return start
  }

  /** Whether `regexp` matches `context` once the command's own text is out of it; a context it does not match at all is not read again. */
  testWithout(regexp: RegExp, {context, text, at}: CommandAsk): boolean {
    return this.test(regexp, context) && regexp.test(context.slice(0, at) + context.slice(at + text.length))
  }
}

/** Programs a person would type in a terminal (first words of commands). */
export const programs = new Set([
  'npm', 'npx', 'pnpm', 'pnpx', 'yarn', 'bun', 'bunx', 'deno', 'node', 'tsx', 'ts-node', 'python', 'python3', 'pip', 'pip3', 'uv',
  'uvx', 'poetry', 'pytest', 'cargo', 'go', 'make', 'just', 'docker', 'docker-compose', 'podman', 'kubectl', 'helm', 'curl', 'wget',
  'http', 'git', 'gh', 'bash', 'sh', 'zsh', 'pwsh', 'swift', 'xcodebuild', 'xcrun', 'flutter', 'dart', 'dotnet', 'mvn', 'gradle',
  './gradlew', 'php', 'composer', 'rails', 'bundle', 'rake', 'mix', 'supabase', 'vercel', 'netlify', 'wrangler', 'firebase',
  'psql', 'mysql', 'sqlite3', 'redis-cli', 'mongosh', 'pg_dump', 'pg_restore', 'createdb', 'tsc', 'vitest', 'jest', 'playwright',
  'cd', 'ls', 'cat', 'head', 'tail', 'less', 'wc', 'diff', 'find', 'sed', 'awk', 'kill', 'lsof', 'grep', 'rg', 'jq', 'sudo', 'brew', 'apt', 'apt-get', 'alembic', 'prisma', 'drizzle-kit', 'expo', 'eas',
  'terraform', 'pulumi', 'aws', 'gcloud', 'gsutil', 'az', 'fly', 'flyctl', 'railway', 'heroku', 'stripe', 'convex', 'pscale',
  'upstash', 'doppler', 'serverless', 'sls', 'cdk', 'sam', 'ruby', 'java', 'cmake', 'ctest', 'ninja', 'meson', 'gdb', 'lldb',
  'ssh', 'scp', 'rsync', 'chmod', 'cp', 'mv', 'mkdir', 'touch', 'echo', 'export', 'source', 'openssl', 'adb', 'fastlane', 'pod',
  'systemctl', 'pm2', 'uvicorn', 'gunicorn', 'flask', 'django-admin', 'ansible-playbook', 'minikube', 'nx', 'turbo', 'cypress',
  'dig', 'nslookup', 'lighthouse', 'k6', 'hcloud', 'doctl',
  // What a person is told to run on the desktop the agent works on, and paste back: the agent's Bash tool runs them there too.
  'gnome-shell', 'gnome-extensions', 'gsettings', 'dconf', 'busctl', 'gdbus', 'dbus-send', 'xprop', 'xdotool', 'wmctrl', 'xrandr',
  'journalctl', 'loginctl', 'uname', 'lsb_release', 'which', 'file', 'stat', 'du', 'df', 'ps', 'printenv', 'sha256sum', 'shasum',
  'xdg-mime', 'desktop-file-validate', 'update-desktop-database', 'flatpak'
])

/** Whether a word names a script by path (`./deploy.sh`, `scripts/seed.py`, `bin/setup`). */
function isScriptPath(word: string): boolean {
  if (word.startsWith('./') && word.length > 2) return true
  const dot = word.lastIndexOf('.')
  return word.includes('/') && dot > 0 && ['.sh', '.bash', '.py', '.js', '.mjs', '.ts', '.rb', '.ps1'].includes(word.slice(dot))
}

/** A subcommand word: lower case, no flag, no path, no value (`db`, `push`, `run:dev` stops at the script name). */
const subcommandWord = /^[a-z][a-z0-9:_-]*$/

/**
 * The words of a command line when it starts with a known program: leading
 * `VAR=value` assignments are skipped, the program and up to three
 * subcommand words kept. `undefined` when the line is not a command.
 */
export function commandWords(line: string, more: ReadonlySet<string> = new Set()): string[] | undefined {
  const tokens = line.trim().split(/\s+/).slice(0, 12)
  let index = 0
  while (index < tokens.length && /^[A-Z_][A-Z0-9_]*=/.test(tokens[index])) index++
  const program = tokens[index]
  if (program === undefined || !(programs.has(program) || more.has(program) || isScriptPath(program))) return undefined
  const words = [program]
  for (const token of tokens.slice(index + 1)) {
    if (words.length >= 4 || !subcommandWord.test(token)) break
    words.push(token)
  }
  return words
}

/**
 * A workflow's slash command (`/gsd:execute-phase 4`, `/gsd-verify-work`), a
 * prompt the agent can run itself: one namespaced path segment, then
 * arguments after a space (paths included: `/gsd-ingest docs/spec.md`), so
 * `/api/health`, `/api-v2/users`, `/settings` and the session's own `/clear` are not read.
 */
const slashCommand = /^\/[a-z][a-z\d]*[:-][a-z\d][\w:-]*(?:\s.*)?$/i

/** The session's own controls with a hyphen in their name, which only the person at the prompt can give. */
const sessionControls = /^\/(?:add-dir|terminal-setup|install-github-app|release-notes)\b/i

/** A word that tells the person to type something, in the languages plans are written in. */
export const runVerb =
  /\b(runs?|re-?runs?|execute|type|enter|paste|invoke|launch|start|apply|kick(?:s|ing)? off|terminal|shell|command line|cli|console:)\b|выполн|запуст|примен|ejecut|execut|aplic|appliqu|lanc|esegu|kör|exécut|运行|执行|应用|실행|적용|chạy/i

/** A line that is nothing but a code span (a list item of commands). */
const bareSpan = /^\s*(?:(?:[-*+]|\d+[.)])\s*)?`[^`]+`\s*$/

/**
 * Whether a command is given to be run: a fence line, a `$ ` prompt or "Run:"
 * always; a code span only on a line that tells the person to run or type it
 * or holds nothing but the span (a list of commands). A span that mentions a
 * command ("`git status` shows the files") is not an ask.
 */
export function isRunAsk(command: CommandAsk, lines = new LineTests()): boolean {
  // An SQL fence is run when the line before it says so ("Apply in production:"), not when it is shown ("The row now reads:").
  if (command.form === 'sql') return runVerb.test(command.context.slice(0, command.context.lastIndexOf('\n')))
  if (command.form !== 'span' && command.form !== 'slash') return true
  return (lines.test(runVerb, command.context) || lines.test(bareSpan, command.context)) && !forbidsOrReports(command)
}

/** Words just before a span that forbid it: "NOT `python -m app`", "never `git push --force`", "instead of `npm i`". */
const forbidding = /(?:\bnot|\bnever|\bdon'?t|\bdo not|\bavoid|\binstead of|\brather than|\bwithout|\bnunca|\bno uses?|\bnicht)\W{0,3}(?:(?:run|use|type|call|try|ejecutes?)\W{1,3})?$/i

/** Words just after a span that say what happened when it ran, not that it should: "`mix app.check` failed in CI". */
const reportsOutcome = /^\W{0,3}(?:failed|fell over|errored|crashed|broke|timed out|was (?:failing|red|broken)|has been failing|keeps failing|fall[óo]|ha fallado)\b/i

/** A span the line forbids, or one it reports as having failed: it names the command without asking for it. */
function forbidsOrReports(command: CommandAsk): boolean {
  const {at} = command
  // The condition is read in the 60 characters before the span, a forbidding word in the last 30 of them.
  const before = command.context.slice(Math.max(0, at - 60), at)
  const after = command.context.slice(at + command.text.length).replace(/^`+/, '').slice(0, 40)
  return forbidding.test(before.slice(-30)) || reportsOutcome.test(after) || conditionOnExit(before, after)
}

/** Words just after a span that give its exit status ("`npm run check` returned non-zero", "exits 1"). */
const exitStatus = /^\W{0,3}(?:[^.;\n`]{0,20}?\s)?(?:returned|returns|exits|exited)\b[^.;\n]{0,12}?\b(?:non-?zero|[1-9]\d{0,2}|an? error|failure)\b/i

/** A condition opened before a span, with no run verb after its opening: "If the expiry check (". */
const conditionOpened = /\b(?:if|when|whenever|unless|in case)\b([^.;\n]{0,60})$/i

/**
 * A span inside a condition on its exit status ("If the expiry check
 * (`npm run check:cookies`) exits non-zero, re-export the cookies"): the
 * condition names a run, the ask is what follows it. "If you run `x` and it
 * returns 1" still asks for the run.
 */
function conditionOnExit(before: string, after: string): boolean {
  // The exit status first: it is read at the span's end, the condition anywhere before it.
  if (!exitStatus.test(after)) return false
  const opened = conditionOpened.exec(before)
  return opened !== null && !runVerb.test(opened[1])
}

/**
 * A one-way release act (`npm publish`, `cargo publish`, `git push` of a tag,
 * the release commit, `gh release create`, `gh pr merge` of the release PR): with `registryOnly`, only a publish to a package
 * registry, which needs the maintainer's registry login (and often a one-time
 * code) and cannot be taken back.
 */
export function isReleaseAct(words: string[], {registryOnly = false} = {}): boolean {
  const [program, ...rest] = words
  if (['npm', 'pnpm', 'yarn', 'bun', 'cargo', 'poetry', 'gem', 'twine', 'dotnet', 'flit', 'hatch', 'uv'].includes(program) && rest.some((word) => ['publish', 'upload', 'push'].includes(word))) return true
  if (registryOnly) return false
  // A release commit (`Release-As: 2.0.0`) and the merge or workflow run that publishes are the release's trigger, as the push of its tag is.
  return (
    (program === 'git' && ['push', 'tag', 'commit'].includes(rest[0])) ||
    (program === 'gh' && (rest[0] === 'release' || (rest[0] === 'pr' && rest[1] === 'merge') || (rest[0] === 'workflow' && rest[1] === 'run')))
  )
}

/** A line that launches the app for the person to use: "Launch:", "Launch the app:", "Start the application", "open the window". */
const appLaunch =
  /\blaunch(es|ing)?\b|\b(open|start|run)\w*\b[^.\n`]{0,25}\b(desktop |gui |native )?(app|application|window|gui|program)\b|\b(lanza|abre|inicia|ejecuta)\w*\b[^.\n`]{0,20}\b(la )?(app|aplicaci[oó]n)\b|(启动|打开)[^。\n]{0,10}(应用|程序|客户端|窗口)/i

/** What sends the person to a page: a URL, `localhost` or a browser (a desktop app's own server or API is not one). */
const shellPage = /\b(localhost|127\.0\.0\.1|0\.0\.0\.0|browsers?|navegador)\b|https?:\/\/|浏览器/i

/** What says the app is a server or a web page, which the executor starts before the checkpoint: a page the person is sent to, a port, or a server's words. */
const servedApp = new RegExp(String.raw`${shellPage.source}|:\d{4,5}\b|\b(?:servers?|port|api|endpoint|webhook)\b|服务`, 'i')

/** `flutter run` on a desktop device, which opens the app's window (`flutter run -d macos`). */
const flutterDesktop = /\bflutter run\b[^&|;\n]{0,60}?(?:-d|--device-id)[ =](?:macos|windows|linux)\b/

/** A command word that names a desktop shell (`tauri`, `electron:dev`, `electron-forge`). */
const desktopShellWord = /^(tauri|electron|electron-forge|electron-vite)(:|$)/

/** A `cd` into a folder in front of the command (`cd <repo> && `, `cd "my app"; `). */
const leadingCd = /^cd\s+(?:"[^"\n]*"|'[^'\n]*'|\S+)\s*(?:&&|;)\s*/

/** The words of the command a leading `cd` runs (`cd app && npm run tauri dev` runs `npm run tauri dev`). */
function ownWords({words, text}: Pick<CommandAsk, 'words' | 'text'>): string[] {
  if (words[0] !== 'cd') return words
  const rest = text.replace(leadingCd, '')
  return (rest !== text && commandWords(rest)) || words
}

/**
 * A command that runs a desktop shell, which opens the app's window (`npm run tauri dev`,
 * `cargo tauri dev`, `pnpm tauri dev`, `npx electron .`, `electron-forge start`, `electron-vite dev`,
 * `flutter run -d macos`); not `electron-builder`, which packages the app.
 */
const runsDesktopShell = (command: CommandAsk) => ownWords(command).some((word) => desktopShellWord.test(word)) || flutterDesktop.test(command.text)

/**
 * A command that builds, tests or installs (`cmake --build … && ./app`,
 * `xcodebuild build`), which the executor runs before the checkpoint, or that
 * starts a dev server (`npm run dev`, `nx serve web`, `npm start`, after a
 * `cd`), unless it runs a desktop shell (`shell`: `npm run tauri dev`, `electron .`).
 */
export function buildsOrServes(command: CommandAsk, shell = false): boolean {
  if (/\b(build|compile|test|install|migrate|seed)\b/i.test(command.text)) return true
  return !shell && ownWords(command).slice(1).some((word) => /^(dev|serve|server|start|preview|up)(:|$)/.test(word))
}

/**
 * A command that launches the desktop app under test for the person to click
 * through (`python -m app` after "Launch the app:", or a desktop shell's own
 * `npm run tauri dev`, which needs no such line), on a task that never sends
 * them to a browser or a server: GSD's own human-verify opens the app for the
 * person ("Open App.app and test"). A server or a web app the person visits,
 * and the build before the launch, are still the executor's.
 */
export function launchesDesktopApp(command: CommandAsk, taskText: string, lines = new LineTests()): boolean {
  const shell = runsDesktopShell(command)
  if (buildsOrServes(command, shell)) return false
  // The command stands on the context's last line; a fenced one has the prose line before the fence over it.
  const lineStart = lines.lastLineStart(command.context)
  const lead = lineStart === 0 ? '' : command.context.slice(0, lineStart - 1)
  const line = lineStart === 0 ? command.context : command.context.slice(lineStart)
  const lineCommand = {...command, context: line, at: command.at - lineStart}
  if (!(shell || lines.testWithout(appLaunch, lineCommand) || lines.test(appLaunch, lead))) return false
  // A desktop shell opens a window whatever servers or APIs the app talks to: only a page the person is sent to makes it a web app's launch.
  const served = shell ? shellPage : servedApp
  return !lines.testWithout(served, lineCommand) && !lines.test(served, lead) && !lines.test(served, taskText)
}

/** Subcommands that log the person in: the auth gates a checkpoint exists for (`vercel login`, `gh auth login`, `aws configure`). */
export function isLogin(words: string[]): boolean {
  return words.slice(1).some((word) => /^(login|logout|signin|whoami|configure)(:|$)/.test(word) || word === 'auth' || word === 'sso')
}

/** Subcommands that only show what a login reached (`firebase projects:list`, `gh auth status`, `vercel whoami`): a login's own check. */
export function isLoginCheck(words: string[]): boolean {
  return words.slice(1).some((word) => /(?:^|:)(?:list|ls|status|whoami|show|info)$/.test(word))
}

/** The info string's first word of a fence opener, lower case (`bash`, `markdown`, ``). */
function fenceLanguage(opener: string): string {
  return opener.trim().replace(/^(`{3,}|~{3,})/, '').trim().split(/[\s{,]/)[0].toLowerCase()
}

/** Fences that hold SQL a person could be told to run. */
const sqlLanguages = new Set(['sql', 'psql', 'pgsql', 'plpgsql', 'postgres', 'postgresql', 'mysql', 'sqlite', 'tsql'])

/** Fences whose lines are typed at a prompt; an unlabelled fence may be either, so its lines must start with a program. */
const shellLanguages = new Set(['', 'bash', 'sh', 'shell', 'zsh', 'fish', 'console', 'terminal', 'shellsession', 'powershell', 'pwsh', 'ps1', 'cmd', 'bat', 'text', 'txt', 'plaintext'])

/** A prompt (`$ `, `> `, `PS> `, `#` is a comment) in front of a command. */
const prompt = /^(?:\$|>|PS>|PS [^>]{0,80}>)\s+/

/** PowerShell's `$env:NAME='value';` in front of a command sets a variable for it, as `NAME=value` does in a POSIX shell. */
const powershellEnv = /^(?:\$env:[A-Za-z_]\w*=[^;\s]*;\s*)+/

/** A command line without its prompt and PowerShell variable settings. */
const withoutPrompt = (line: string) => line.replace(prompt, '').replace(powershellEnv, '')

/**
 * The parts of an element that tell the person what to do: its content
 * without the children named in `skip` (for a human-action, `<verification>`
 * and `<resume-signal>` say what the agent checks and how to answer).
 */
export function readRanges(element: Element, skip: ReadonlySet<string>): Range[] {
  const ranges: Range[] = []
  let from = element.contentRange[0]
  const skipped = (function* walk(parent: Element): Generator<Element> {
    for (const child of parent.children) {
      if (skip.has(child.name)) yield child
      else yield* walk(child)
    }
  })(element)
  for (const child of skipped) {
    if (child.range[0] > from) ranges.push([from, child.range[0]])
    from = Math.max(from, child.range[1])
  }
  if (element.contentRange[1] > from) ranges.push([from, element.contentRange[1]])
  return ranges
}

/** The first line of an SQL fence's body that is not a comment, as a command: `sql` and its keyword. */
function firstStatement(text: string, from: number, end: number): Pick<CommandAsk, 'text' | 'range' | 'words'> | undefined {
  let lineStart = from
  while (lineStart < end) {
    const newline = text.indexOf('\n', lineStart)
    const lineEnd = newline === -1 || newline > end ? end : newline
    const line = text.slice(lineStart, lineEnd).replace(/\r$/, '')
    const trimmed = line.trim()
    if (/^(`{3,}|~{3,})/.test(trimmed)) return undefined
    const keyword = /^[a-z]+/i.exec(trimmed)
    if (trimmed !== '' && !trimmed.startsWith('--') && keyword) {
      const at = lineStart + line.length - line.trimStart().length
      return {text: trimmed, range: [at, at + trimmed.length], words: ['sql', keyword[0].toLowerCase()]}
    }
    lineStart = lineEnd + 1
  }
  return undefined
}

/** The end of a command given in prose: a closing backtick, a sentence end, a joining word, or a note in brackets ("npm run dev (port 3000)"). */
const proseCommandEnd = /`|\s(?:and|then|to|—|-)\s|[;,](?:\s|$)|\.(?:\s|$)|\s\(|$/

/** "Run: cmd", "$ cmd", "execute cmd": where a command given in prose begins. */
const runClause = /(?:(?:^|\s)(\$)\s+|\b(?:run|execute|type)(?::\s*|\s+))(?=[\w./])/gi

/**
 * "Start the dev server: cmd", "- **Run the tests:** cmd": a label that opens its line (a list item's) asking for a run,
 * then the command after its colon; not "After the run, read the file: cmd", where "run" is a noun.
 */
const runLabel = /^\s{0,12}(?:(?:[-*+]|\d{1,3}[.)])\s{1,4})?(?:\*\*)?(?:start|run|launch|execute|restart)\b[^:`\n.,;]{0,40}:(?:\*\*)?\s+(?=[\w./])/gi

/** Where the commands given in prose on a line begin, in line order, each once: after "Run:", a `$ ` prompt or a run label. */
function proseStarts(line: string): Array<{at: number; form: 'prompt' | 'run'}> {
  const starts = new Map<number, 'prompt' | 'run'>()
  for (const match of line.matchAll(runClause)) starts.set(match.index + match[0].length, match[1] ? 'prompt' : 'run')
  for (const match of line.matchAll(runLabel)) {
    const at = match.index + match[0].length
    if (!starts.has(at)) starts.set(at, 'run')
  }
  return [...starts].map(([at, form]) => ({at, form})).sort((a, b) => a.at - b.at)
}

/** How far a line is indented, a tab counting as four spaces. */
function indentOf(line: string): number {
  let width = 0
  for (const char of line) {
    if (char === ' ') width++
    else if (char === '\t') width += 4
    else break
  }
  return width
}

/** Longest line scanned for code spans (a pathological line of backticks stays linear). */
const maxSpanLine = 4000

/**
 * The code spans of one line, as [start, end) of their content. Read from the
 * text, not from the Markdown tree: inside a `<task>` HTML block the parser
 * makes no code spans, but the agent reads them all the same.
 */
function codeSpans(line: string): Array<[number, number]> {
  const spans: Array<[number, number]> = []
  const limit = Math.min(line.length, maxSpanLine)
  let index = line.indexOf('`')
  while (index !== -1 && index < limit) {
    let run = index
    while (line[run] === '`') run++
    const ticks = line.slice(index, run)
    let close = line.indexOf(ticks, run)
    // A longer run of backticks does not close a shorter one.
    while (close !== -1 && close < limit && line[close + ticks.length] === '`') {
      let after = close
      while (line[after] === '`') after++
      close = line.indexOf(ticks, after)
    }
    if (close === -1 || close >= limit) {
      index = line.indexOf('`', run)
      continue
    }
    spans.push([run, close])
    index = line.indexOf('`', close + ticks.length)
  }
  return spans
}

/**
 * The commands in the given ranges of a document, in source order: each line
 * of a shell (or unlabelled) fence that starts with a program, each code span
 * that does, each `$ ` prompt line and each "Run:"/"Execute" clause that does.
 * Fences in other languages (templates, code, Markdown) hold no commands.
 * `more` names programs on top of the table (a rule's option); with
 * `slashCommands`, code spans holding a workflow's slash command are read too,
 * and with `sql`, the first statement of each SQL fence.
 */
export function commandsIn(document: PlanDocument, ranges: Range[], more: ReadonlySet<string> = new Set(), {slashCommands = false, sql = false} = {}): CommandAsk[] {
  const {text} = document
  const found: CommandAsk[] = []
  // `ranges` come in order and apart (`readRanges`), as fenced regions do: each look-up is a binary search, not a scan.
  const asked = new SortedRanges(ranges)
  const fences = new SortedRanges(ranges.flatMap(([from, to]) => [...document.fenced.within(from, to)]).filter((range, index, all) => range !== all[index - 1]))
  const inFence = (offset: number) => fences.holding(offset) !== undefined
  for (const [start, end] of fences.ranges) {
    const opener = text.indexOf('\n', start)
    if (opener === -1 || opener >= end) continue
    const language = fenceLanguage(text.slice(start, opener))
    const before = text.slice(text.lastIndexOf('\n', Math.max(0, text.lastIndexOf('\n', start - 1) - 1)) + 1, start).trim()
    if (sql && sqlLanguages.has(language) && asked.holding(start) !== undefined) {
      const statement = firstStatement(text, opener + 1, end)
      if (statement) found.push({...statement, form: 'sql', context: `${before}\n${statement.text}`, at: before.length + 1})
      continue
    }
    if (!shellLanguages.has(language)) continue
    let lineStart = opener + 1
    while (lineStart < end) {
      const newline = text.indexOf('\n', lineStart)
      const lineEnd = newline === -1 || newline > end ? end : newline
      const raw = text.slice(lineStart, lineEnd).replace(/\r$/, '')
      const trimmed = raw.trimStart()
      const unprompted = withoutPrompt(trimmed)
      const words = /^(`{3,}|~{3,})/.test(trimmed) ? undefined : commandWords(unprompted, more)
      if (words && asked.holding(lineStart) !== undefined) {
        const at = lineStart + raw.length - unprompted.length
        found.push({text: unprompted.trim(), range: [at, at + unprompted.trimEnd().length], words, form: 'fence', context: `${before}\n${raw}`, at: before.length + 1 + at - lineStart})
      }
      lineStart = lineEnd + 1
    }
  }
  for (const [from, to] of ranges) {
    let lineStart = from
    // An indented code block: after a blank line, four or more columns deeper than the prose before it (inside a task's HTML no parser marks it, but the agent reads it as code).
    let proseIndent: number | undefined
    let proseLine = ''
    let codeIndent: number | undefined
    let afterBlank = false
    while (lineStart < to) {
      const newline = text.indexOf('\n', lineStart)
      const lineEnd = newline === -1 || newline > to ? to : newline
      const line = text.slice(lineStart, lineEnd)
      const blank = line.trim() === ''
      const indent = indentOf(line)
      const code = !blank && ((codeIndent !== undefined && indent >= codeIndent) || (afterBlank && proseIndent !== undefined && indent >= proseIndent + 4))
      if (!blank && !code) {
        proseIndent = indent
        proseLine = line.trim()
        codeIndent = undefined
      } else if (code) codeIndent ??= indent
      afterBlank = blank
      const unprompted = withoutPrompt(line.trimStart())
      const codeWords = code && !inFence(lineStart) ? commandWords(unprompted, more) : undefined
      if (codeWords) {
        const at = lineStart + line.length - unprompted.length
        found.push({text: unprompted.trim(), range: [at, at + unprompted.trimEnd().length], words: codeWords, form: 'fence', context: `${proseLine}\n${line}`, at: proseLine.length + 1 + at - lineStart})
      } else if (!inFence(lineStart) && !inFence(lineEnd - 1)) {
        const spans = codeSpans(line)
        for (const [spanStart, spanEnd] of spans) {
          const body = line.slice(spanStart, spanEnd)
          const unprompted = withoutPrompt(body.trimStart())
          const at = lineStart + spanStart + body.length - unprompted.length
          const range: Range = [at, at + unprompted.trimEnd().length]
          const words = commandWords(unprompted, more)
          if (words) found.push({text: unprompted.trim(), range, words, form: 'span', context: line, at: at - lineStart})
          else if (slashCommands && slashCommand.test(unprompted.trim()) && !sessionControls.test(unprompted)) {
            found.push({text: unprompted.trim(), range, words: [unprompted.trim().split(/\s/)[0]], form: 'slash', context: line, at: at - lineStart})
          }
        }
        // Spans and clauses both come in line order: the first span not ended before a clause is the only one that can hold it.
        let span = 0
        for (const {at, form} of proseStarts(line)) {
          while (span < spans.length && spans[span][1] < at) span++
          if (span < spans.length && at >= spans[span][0] - 1) continue
          const rest = line.slice(at)
          const command = rest.slice(0, rest.search(proseCommandEnd)).trim()
          const words = commandWords(command, more)
          if (!words) continue
          found.push({text: command, range: [lineStart + at, lineStart + at + command.length], words, form, context: line, at})
        }
      }
      lineStart = lineEnd + 1
    }
  }
  return found.sort((a, b) => a.range[0] - b.range[0])
}
