import {buildsOrServes, commandsIn, isRunAsk, launchesDesktopApp, LineTests, type CommandAsk} from '../src/commands.js'
import {child} from '../src/model/markup.js'
import {pathCovers, taskType} from '../src/plan.js'
import {defineRule} from '../src/rule.js'

interface Options {
  /** More command names (first words) that count as asking the person to run something. */
  commands: string[]
}

/** What the agent did or does ("Claude started the server with `npm run dev`") is not an ask. */
const agentDid = /\b(claude|the (executor|agent|orchestrator)|already|automatically)\b|\b(was|were|has been|have been) (run|started|executed)\b/i

/**
 * Words that tie a command to what the person does at that moment ("while the
 * track plays", "while you press the key", "during playback"): the command
 * reads that action, which no earlier task can.
 */
const duringPersonsAction =
  /\b(?:while|whilst|during)\s+(?:you\b|the (?:person|user|tester)\b|(?:the |a |your )?(?:track|song|video|media|playback|audio|music|recording|call|stream)\b|(?:press|hold|play|click|typ|tap|drag|scroll|switch|plugg|unplugg|us)ing\b)|\bas you\b/i

/** A line that tells the person to make files: "save it to `docs/shots/a.png`", "Screenshot to:", "create `CHECKLIST.md`". */
const makesFiles = /\b(?:sav(?:e|es|ed|ing)|stor(?:e|ed)|writ(?:e|es|ten)|creat(?:e|es|ed)|put|drop|export|captur(?:e|es|ed)|record|screenshots?)\b|保存|截图|guard(?:a|e|ar)\b|сохран/i

/**
 * A path where the files go ("save it to `docs/shots/`", "Screenshot to: …", "保存截图至 …", "Create `CHECKLIST.md`"),
 * not one the person only looks at ("screenshot the `dist/` listing"): a code span (quotes allowed, for a folder
 * with a space) or a bare word with a `/`.
 */
const namedPath = /(?:\b(?:to|into|as|at|creat(?:e|es|ed)|write(?:s| up)?)\b|[→至为到]|->)\s{0,3}:?\s{0,3}(?:`"?([^`"\n]{1,300})"?`|([\w.~@{}-]{0,100}\/[^\s`'"()<>,;]{0,300}))/gi

/** Programs that only look at files: a listing of what the person made checks their own work. */
const inspectors = new Set(['ls', 'cat', 'head', 'tail', 'less', 'wc', 'file', 'stat', 'du'])

/** What a listing may be piped into and still only look (`ls shots/ | wc -l`). */
const filters = new Set(['wc', 'grep', 'head', 'tail', 'sort', 'less'])

/** The paths a how-to-verify tells the person to make in this checkpoint (not the ones the agent made: "Claude saved … to"). */
function pathsMade(howTo: string): string[] {
  const made: string[] = []
  for (const line of howTo.split('\n')) {
    const verb = makesFiles.exec(line)
    if (!verb || agentDid.test(line)) continue
    for (const match of line.slice(verb.index).matchAll(namedPath)) {
      const path = (match[1] ?? match[2]).trim().replace(/[.:]$/, '')
      // A span holding a command, or a URL, is no file made.
      if (/\s/.test(path) && match[1] !== undefined && !match[0].includes('`"')) continue
      if (!path.includes('://') && /[/.]/.test(path)) made.push(path)
    }
  }
  return made
}

/**
 * A command that only looks at files the person makes in this checkpoint
 * (`ls docs/screenshots/` after "save each screenshot to `docs/screenshots/`"):
 * they do not exist before the person's work, so no earlier task can run it.
 */
function inspectsPersonsFiles(command: CommandAsk, made: string[]): boolean {
  if (made.length === 0 || !inspectors.has(command.words[0])) return false
  const [first, ...piped] = command.text.split(/\s\|\s?/)
  if (/&&|;|>/.test(first.replace(/\s\d?>\s?\/dev\/null/g, '')) || piped.some((part) => !filters.has(part.trim().split(/\s/)[0]))) return false
  const args = [...first.matchAll(/"[^"]*"|'[^']*'|\S+/g)].map((token) => token[0]).slice(1)
  const paths = args.filter((arg) => !arg.startsWith('-') && !/^\d?>/.test(arg)).map((arg) => arg.replace(/^['"]|['"]$/g, ''))
  return paths.length > 0 && paths.every((path) => made.some((file) => pathCovers(file, path) || pathCovers(path, file)))
}

/**
 * A human-verify asks the person to look, not to run commands: the executor
 * starts servers and runs builds before the checkpoint ("If Claude can run
 * it, Claude runs it"). Visiting URLs is fine.
 */
export default defineRule<Options>({
  id: 'no-cli-in-human-verify',
  description: "A human-verify's `<how-to-verify>` does not tell the person to run commands.",
  severity: 'warning',
  kinds: ['plan'],
  defaultOptions: {commands: []},
  check({document, options, report}) {
    const more = new Set(options.commands)
    const lines = new LineTests()
    for (const task of document.tasks) {
      if (taskType(task) !== 'checkpoint:human-verify') continue
      const howTo = child(task, 'how-to-verify')
      if (!howTo) continue
      const howToText = document.text.slice(howTo.contentRange[0], howTo.contentRange[1])
      const made = pathsMade(howToText)
      const asks = commandsIn(document, [howTo.contentRange], more).filter(
        (command) =>
          isRunAsk(command, lines) &&
          !agentDid.test(command.context) &&
          !launchesDesktopApp(command, howToText, lines) &&
          !(lines.testWithout(duringPersonsAction, command) && !buildsOrServes(command)) &&
          !inspectsPersonsFiles(command, made)
      )
      if (asks.length === 0) continue
      const count = asks.length - 1
      const andMore = count > 0 ? ` (and ${count} more command${count > 1 ? 's' : ''})` : ''
      report({
        message: `This human-verify asks the person to run \`${asks[0].text}\`${andMore}: the executor runs commands and starts servers before the checkpoint; do it in the preceding \`auto\` task and leave the person only what to look at`,
        range: asks[0].range
      })
    }
  }
})
