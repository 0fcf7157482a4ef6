import {commandsIn, isLogin, isLoginCheck, isRunAsk, readRanges, type CommandAsk} from '../src/commands.js'
import type {Range} from '../src/model/text.js'
import {blankTags, taskType} from '../src/plan.js'
import {defineRule} from '../src/rule.js'
import type {PlanDocument} from '../src/model/document.js'

/** Work a CLI or API can do; `tool` names what would do it. Patterns are matched case-insensitively. */
export interface AutomatableWork {
  pattern: string
  work: string
  tool: string
}

interface Options {
  /** More automatable work, on top of the built-in list. */
  automatable: AutomatableWork[]
  /** More legitimate human asks (regular expressions); a sentence that matches one is not flagged. */
  legitimate: string[]
  /** More programs (first words of commands) a person could be told to run. */
  commands: string[]
}

/** From the checkpoint reference's "Service CLI Reference" and "Automatable Quick Reference". */
const services: Array<[RegExp, string]> = [
  [/\bvercel\b/i, 'vercel'],
  [/\brailway\b/i, 'railway'],
  [/\bfly(\.io|ctl)?\b/i, 'fly'],
  [/\bnetlify\b/i, 'netlify'],
  [/\bheroku\b/i, 'heroku'],
  [/\bsupabase\b/i, 'supabase'],
  [/\bconvex\b/i, 'npx convex'],
  [/\bstripe\b/i, 'the Stripe CLI/API'],
  [/\bupstash\b/i, 'upstash'],
  [/\bplanetscale\b/i, 'pscale'],
  [/\bgithub\b/i, 'gh'],
  [/\bcloudflare|wrangler\b/i, 'wrangler'],
  [/\bfirebase\b/i, 'firebase'],
  [/\b(aws|s3)\b/i, 'aws'],
  [/\bdocker\b/i, 'docker'],
  [/\bprisma\b/i, 'npx prisma']
]

/** The spec's automatable work in prose. Commands themselves are read by `commandsIn`. */
const builtInWork: AutomatableWork[] = [
  // An ask to deploy, not a mention (`self-deploy role`, `Pre-Deploy Gate`, `before deploy`) nor a requirement id (`DEPLOY-02`).
  {pattern: String.raw`(^|[^\w-])(re)?deploy( it| the| this| your| to| a| an|ing the)\b|^\W*(re)?deploy\b(?!-)`, work: 'deploy', tool: ''},
  {pattern: String.raw`\b(run|execute|kick off|apply)\b[^.\n]{0,40}\b(build|tests?|test suite|migrations?|migrate|seeds?|seeding|lint)\b`, work: 'run builds, tests and migrations', tool: 'the Bash tool'},
  {pattern: String.raw`\bstart\b[^.\n]{0,20}\b(dev |development |local |the )?server\b`, work: 'start servers', tool: 'the Bash tool'},
  {pattern: String.raw`(?<![/\x60])\bcreate\b[^.\n]{0,30}\b(database|db|webhooks?|buckets?|tables?|redis|postgres|schema)\b`, work: 'create databases, webhooks and buckets', tool: ''},
  {pattern: String.raw`\bcopy\b[^.\n]{0,60}\b(into|to) (the )?[^.\n]{0,30}\b(dashboard|settings|console|config|\.env)\b`, work: 'copy values between services', tool: ''},
  {pattern: String.raw`\b(create|edit|update|write|add)\b[^.\n]{0,40}(\.env\b|\.env\.local|config file|\b\w+\.(json|ya?ml|toml|ts|js)\b)`, work: 'create or edit files', tool: 'the Write tool'},
  {pattern: String.raw`\b(env(ironment)? ?var(iable)?s?|secrets?)\b[^.\n]{0,60}\b(dashboard|console|settings page|web ui)\b|\b(dashboard|console)\b[^.\n]{0,60}\benv(ironment)? ?var(iable)?s?\b`, work: 'set environment variables in a dashboard', tool: ''}
]

/** The documented reasons a person must act: auth gates, secrets, verification links, 2FA, 3-D Secure, OAuth consent, approvals, devices, judgement. */
const builtInLegitimate = [
  String.raw`\b(log ?in|login|sign ?in|sign ?up|authenticat\w*|auth login|re-?auth\w*)\b`,
  String.raw`\b(api[ _-]?keys?|secret (key|value)|(signing|webhook|client) secrets?|tokens?|credentials?|passwords?|passphrase|private key)\b`,
  // Taking a secret from a dashboard ("the signing secret from the Stripe dashboard"): only the person can read it there.
  String.raw`\b(secrets?|keys?|tokens?)\b[^.\n]{0,40}\bfrom\b[^.\n]{0,40}\b(dashboard|console|portal|settings)\b`,
  String.raw`\b(verification (link|email|code)|verify (your )?email|confirm(ation)? email|magic link)\b`,
  String.raw`\b(2fa|mfa|two[- ]factor|sms|one[- ]time (code|password)|otp)\b`,
  String.raw`\b(3-?d ?secure|3ds|credit card|payment (method|details))\b`,
  String.raw`\b(oauth|consent|authori[sz]e the app|grant access)\b`,
  String.raw`\b(approv(e|al)|manual review|kyc|identity verification)\b`,
  String.raw`\b(physical|device|phone|hardware|usb|qr code|plug)\b`,
  String.raw`\b(purchase|buy|billing|subscribe|payment)\b`
]

/** A device in the person's hands: a command run for it (`npx expo start`, then scan the QR code) is theirs to run. */
const deviceWords = /\b(physical|device|phone|hardware|usb|qr code|simulator|emulator)\b/i

/**
 * A line or sentence about what the agent does, not the person: "Claude runs
 * `supabase db push` after approval", "I'll add it via `npx convex env set`",
 * "the migration was applied". The agent is named the same way in most
 * languages (`Claude`, orchestrator, оркестратор, 编排器).
 */
const agentDoes =
  /\b(claude|the (executor|agent|orchestrator|planner)|gsd|automatically|already)\b|\b(i|we)('ll| will|'ve| have| ran| run| created| deployed| applied| added)\b|\b(was|were|has been|have been|is being) (run|executed|applied|deployed|created|added|automated)\b|orchestr|orquest|orkestr|оркестр|агент|执行器|编排|协调器|에이전트|오케스트/i

/** Children that say what the agent checks or how to answer, not what the person is told to do. */
const notAsks = new Set(['verification', 'verify', 'automated', 'done', 'resume-signal', 'files', 'read_first', 'acceptance_criteria', 'what-built', 'what-checked', 'precondition'])

/** Commands that store a secret the person holds (`fly secrets set`, `vercel env add`, `gh secret set`): providing a secret is a documented ask. */
function storesSecret(words: string[]): boolean {
  const rest = words.slice(1)
  return rest.some((word) => /^secrets?$/.test(word)) || /\b(env (add|set)|variables set|config:set)\b/.test(rest.join(' '))
}

/** A sentence (or line) of prose with its offset; it ends at a line break or at `.`, `!`, `?` before a space, not at the dot of `.env` or `src/config.ts`. */
function sentencesIn(text: string, from: number, to: number): Array<{text: string; start: number}> {
  const result: Array<{text: string; start: number}> = []
  let start = from
  for (let index = from; index <= to; index++) {
    const char = text[index]
    const ends = index === to || char === '\n' || ('.!?。！？'.includes(char) && (index + 1 >= to || /\s/.test(text[index + 1]) || '。！？'.includes(char)))
    if (!ends) continue
    const sentence = text.slice(start, Math.min(index + 1, to))
    if (sentence.trim() !== '') result.push({text: sentence, start})
    start = index + 1
  }
  return result
}

/** The plan's prose as the person reads it: tags and fenced code blanked to spaces (commands in fences are read as commands), offsets kept. */
function proseOf(document: PlanDocument): string {
  const parts: string[] = []
  let at = 0
  for (const region of document.opaque.filter((candidate) => candidate.kind === 'fenced').sort((a, b) => a.range[0] - b.range[0])) {
    if (region.range[0] < at) continue
    parts.push(document.text.slice(at, region.range[0]), document.text.slice(region.range[0], region.range[1]).replace(/[^\n]/g, ' '))
    at = region.range[1]
  }
  parts.push(document.text.slice(at))
  return blankTags(parts.join(''))
}

function toolFor(text: string, work: AutomatableWork): string {
  if (work.tool) return work.tool
  for (const [pattern, cli] of services) if (pattern.test(text)) return cli
  return "the service's CLI or API"
}

const quoted = (text: string) => (text.length > 80 ? `${text.slice(0, 77)}...` : text)

/**
 * A `checkpoint:human-action` asks a person only for what no CLI or API can
 * do: "If Claude can run it, Claude runs it."
 */
export default defineRule<Options>({
  id: 'no-automatable-human-action',
  description: 'A `checkpoint:human-action` does not ask a person to do what a CLI or API can do.',
  severity: 'warning',
  kinds: ['plan'],
  defaultOptions: {automatable: [], legitimate: [], commands: []},
  // The empty default cannot show that `automatable` lists objects.
  optionSchemas: {
    automatable: {
      type: 'array',
      items: {type: 'object', properties: {pattern: {type: 'string'}, work: {type: 'string'}, tool: {type: 'string'}}, required: ['pattern', 'work', 'tool'], additionalProperties: false}
    }
  },
  check({document, options, report}) {
    const work = [...builtInWork, ...options.automatable].map((item) => ({...item, regexp: new RegExp(item.pattern, 'i')}))
    const legitimate = [...builtInLegitimate, ...options.legitimate].map((pattern) => new RegExp(pattern, 'i'))
    const morePrograms = new Set(options.commands)
    let prose: string | undefined
    for (const task of document.tasks) {
      if (taskType(task) !== 'checkpoint:human-action') continue
      const ranges = readRanges(task, notAsks)
      const given = commandsIn(document, ranges, morePrograms)
      // In a task that logs the person in, a command that only lists what the login reached is the login's check.
      const logsIn = given.some((command) => isLogin(command.words))
      const commands = given.filter(
        (command: CommandAsk) =>
          isRunAsk(command) &&
          !isLogin(command.words) &&
          !(logsIn && isLoginCheck(command.words)) &&
          !storesSecret(command.words) &&
          !agentDoes.test(command.context) &&
          !deviceWords.test(command.context) &&
          !legitimate.slice(builtInLegitimate.length).some((pattern) => pattern.test(command.context))
      )
      prose ??= proseOf(document)
      const proseText = prose
      const sentences = ranges.flatMap(([start, end]) => sentencesIn(proseText, start, end))
      const asks: Array<{range: Range; message: string}> = commands.map((command) => ({
        range: command.range,
        message: `This human-action asks a person to run \`${quoted(command.text)}\`, which the executor can run with the Bash tool`
      }))
      for (const sentence of sentences) {
        if (agentDoes.test(sentence.text) || legitimate.some((pattern) => pattern.test(sentence.text))) continue
        const item = work.find((candidate) => candidate.regexp.test(sentence.text))
        if (!item) continue
        const text = sentence.text.trim()
        const start = sentence.start + sentence.text.indexOf(text)
        if (asks.some((ask) => ask.range[0] < start + text.length && ask.range[1] > start)) continue
        asks.push({range: [start, start + text.length], message: `This human-action asks a person to ${item.work} ("${quoted(text)}"), which ${toolFor(text, item)} can do`})
      }
      if (asks.length === 0) continue
      asks.sort((a, b) => a.range[0] - b.range[0])
      const more = asks.length > 1 ? ` (and ${asks.length - 1} more ask${asks.length > 2 ? 's' : ''} in this task)` : ''
      report({
        message: `${asks[0].message}${more}: make it an \`auto\` task and keep the checkpoint for what only a person can do (a login, a secret, a verification link)`,
        range: asks[0].range
      })
    }
  }
})
