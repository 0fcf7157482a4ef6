import {child} from '../src/model/markup.js'
import {contentLines, taskType} from '../src/plan.js'
import {defineRule} from '../src/rule.js'

interface Options {
  /** More command names (first words) that count as asking the person to run something. */
  commands: string[]
}

/** First words of commands a person would type in a terminal. */
const builtInCommands = [
  'npm', 'npx', 'pnpm', 'pnpx', 'yarn', 'bun', 'bunx', 'deno', 'node', 'tsx', 'ts-node', 'python', 'python3', 'pip', 'pip3', 'uv',
  'uvx', 'poetry', 'pytest', 'cargo', 'go', 'make', 'just', 'docker', 'docker-compose', 'podman', 'kubectl', 'helm', 'curl', 'wget',
  'http', 'git', 'gh', 'bash', 'sh', 'zsh', 'swift', 'xcodebuild', 'xcrun', 'flutter', 'dart', 'dotnet', 'mvn', 'gradle',
  './gradlew', 'php', 'composer', 'rails', 'bundle', 'rake', 'mix', 'supabase', 'vercel', 'netlify', 'wrangler', 'firebase',
  'psql', 'mysql', 'sqlite3', 'redis-cli', 'tsc', 'vitest', 'jest', 'playwright', 'cd', 'ls', 'cat', 'grep', 'rg', 'jq', 'sudo',
  'brew', 'apt', 'apt-get', 'alembic', 'prisma', 'drizzle-kit', 'expo', 'eas', 'terraform', 'aws', 'gcloud', 'az', 'fly', 'flyctl',
  'railway', 'heroku', 'stripe', 'convex', 'ruby', 'java', 'cmake', 'ctest', 'ninja', 'meson', 'gdb', 'lldb', 'ssh', 'scp', 'chmod'
]

/** A word that tells the person to type something. */
const runVerb = /\b(run|re-?run|execute|type|enter|paste|invoke|launch|start|terminal|shell|command line|cli|console:)\b/i
/** Where a command can begin: the start of a code span, after a `$ ` prompt, or after "run:"; `(` ends the lookbehind so `(run npm ...)` counts. */
const commandStart = (commands: string[]) =>
  new RegExp(
    String.raw`(?:\x60|(?:^|\s)\$\s+|\b(?:run|execute|type)\s*:?\s+)(${commands.map((name) => name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|')})(?=[\s\x60]|$)`,
    'i'
  )

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
    const pattern = commandStart([...builtInCommands, ...options.commands])
    for (const task of document.tasks) {
      if (taskType(task) !== 'checkpoint:human-verify') continue
      const howTo = child(task, 'how-to-verify')
      if (!howTo) continue
      const asks = contentLines(document, howTo).flatMap((line) => {
        const found = pattern.exec(line.text)
        if (!found) return []
        // A code span alone is a mention (`check that \`git status\` is clean`) unless the line tells the person to type it
        // or is nothing but the command (a list item of commands).
        const viaSpan = found[0].startsWith('`')
        const bare = /^\s*(?:[-*+]|\d+[.)])?\s*`[^`]+`\s*$/.test(line.text)
        if (viaSpan && !runVerb.test(line.text) && !bare) return []
        const at = line.start + found.index + found[0].length - found[1].length
        const end = line.text.slice(found.index + found[0].length - found[1].length).search(/`|\s+(?:and|then|to|—|-)\s|[;,](?:\s|$)|\.(?:\s|$)|$/)
        return [{range: [at, at + end] as [number, number], command: line.text.slice(at - line.start, at - line.start + end).trim()}]
      })
      if (asks.length === 0) continue
      const more = asks.length > 1 ? ` (and ${asks.length - 1} more command${asks.length > 2 ? 's' : ''})` : ''
      report({
        message: `This human-verify asks the person to run \`${asks[0].command}\`${more}: the executor runs commands and starts servers before the checkpoint; do it in the preceding \`auto\` task and leave the person only what to look at`,
        range: asks[0].range
      })
    }
  }
})
