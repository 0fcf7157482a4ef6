import {commandsIn, isRunAsk, launchesDesktopApp} from '../src/commands.js'
import {child} from '../src/model/markup.js'
import {taskType} from '../src/plan.js'
import {defineRule} from '../src/rule.js'

interface Options {
  /** More command names (first words) that count as asking the person to run something. */
  commands: string[]
}

/** What the agent did or does ("Claude started the server with `npm run dev`") is not an ask. */
const agentDid = /\b(claude|the (executor|agent|orchestrator)|already|automatically)\b|\b(was|were|has been|have been) (run|started|executed)\b/i

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
    for (const task of document.tasks) {
      if (taskType(task) !== 'checkpoint:human-verify') continue
      const howTo = child(task, 'how-to-verify')
      if (!howTo) continue
      const howToText = document.text.slice(howTo.contentRange[0], howTo.contentRange[1])
      const asks = commandsIn(document, [howTo.contentRange], more).filter((command) => isRunAsk(command) && !agentDid.test(command.context) && !launchesDesktopApp(command, howToText))
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
