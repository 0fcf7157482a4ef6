import {child, type Element} from '../src/model/markup.js'
import {contentOf, taskType} from '../src/plan.js'
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

const builtInWork: AutomatableWork[] = [
  // An ask to deploy, not a mention (`self-deploy role`, `Pre-Deploy Gate`, `before deploy`).
  {pattern: String.raw`(^|[^\w-])(re)?deploy( it| the| this| your| to| a| an|ing the)\b|^\W*(re)?deploy\b`, work: 'deploy', tool: ''},
  {pattern: String.raw`\b(run|execute|kick off)\b[^.\n]{0,40}\b(build|tests?|test suite|migrations?|migrate|seeds?|seeding|lint)\b`, work: 'run builds, tests and migrations', tool: 'the Bash tool'},
  {pattern: String.raw`\b(npm|pnpm|yarn|bun) (run|install|test|start|i)\b|\bnpx \w|\bprisma (migrate|db)|\bdb (push|seed|reset)\b|\bmake \w`, work: 'run CLI commands', tool: 'the Bash tool'},
  {pattern: String.raw`\bstart\b[^.\n]{0,20}\b(dev |development |local |the )?server\b`, work: 'start servers', tool: 'the Bash tool'},
  {pattern: String.raw`\bcreate\b[^.\n]{0,30}\b(database|db|webhooks?|buckets?|tables?|redis|postgres|schema)\b`, work: 'create databases, webhooks and buckets', tool: ''},
  {pattern: String.raw`\bcopy\b[^.\n]{0,60}\b(into|to) (the )?[^.\n]{0,30}\b(dashboard|settings|console|config|\.env)\b`, work: 'copy values between services', tool: ''},
  {pattern: String.raw`\b(create|edit|update|write|add)\b[^.\n]{0,40}(\.env\b|\.env\.local|config file|\b\w+\.(json|ya?ml|toml|ts|js)\b)`, work: 'create or edit files', tool: 'the Write tool'},
  {pattern: String.raw`\b(env(ironment)? ?var(iable)?s?|secrets?)\b[^.\n]{0,60}\b(dashboard|console|settings page|web ui)\b|\b(dashboard|console)\b[^.\n]{0,60}\benv(ironment)? ?var(iable)?s?\b`, work: 'set environment variables in a dashboard', tool: ''}
]

/** The documented reasons a person must act: auth gates, secrets, verification links, 2FA, 3-D Secure, OAuth consent, approvals, devices. */
const builtInLegitimate = [
  String.raw`\b(log ?in|login|sign ?in|sign ?up|authenticat\w*|auth login|re-?auth\w*)\b`,
  String.raw`\b(api[ _-]?keys?|secret (key|value)|tokens?|credentials?|passwords?|passphrase|private key)\b`,
  String.raw`\b(verification (link|email|code)|verify (your )?email|confirm(ation)? email|magic link)\b`,
  String.raw`\b(2fa|mfa|two[- ]factor|sms|one[- ]time (code|password)|otp)\b`,
  String.raw`\b(3-?d ?secure|3ds|credit card|payment (method|details))\b`,
  String.raw`\b(oauth|consent|authori[sz]e the app|grant access)\b`,
  String.raw`\b(approv(e|al)|manual review|kyc|identity verification)\b`,
  String.raw`\b(physical|device|phone|hardware|usb|qr code|plug)\b`,
  String.raw`\b(purchase|buy|billing|subscribe|payment)\b`
]

/** A sentence (or line) of the task's text, with its offset in the source. */
function sentences(document: PlanDocument, element: Element): Array<{text: string; start: number}> {
  const content = contentOf(document, element)
  const result: Array<{text: string; start: number}> = []
  const pattern = /[^\n.!?]+(?:[.!?](?=\s|$)|\n|$)/g
  for (const match of content.matchAll(pattern)) {
    if (match[0].trim() !== '') result.push({text: match[0], start: element.contentRange[0] + match.index})
  }
  return result
}

function toolFor(text: string, work: AutomatableWork): string {
  if (work.tool) return work.tool
  for (const [pattern, cli] of services) if (pattern.test(text)) return cli
  return "the service's CLI or API"
}

/**
 * A `checkpoint:human-action` asks a person only for what no CLI or API can
 * do: "If Claude can run it, Claude runs it."
 */
export default defineRule<Options>({
  id: 'no-automatable-human-action',
  description: 'A `checkpoint:human-action` does not ask a person to do what a CLI or API can do.',
  severity: 'warning',
  kinds: ['plan'],
  defaultOptions: {automatable: [], legitimate: []},
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
    for (const task of document.tasks) {
      if (taskType(task) !== 'checkpoint:human-action') continue
      const asks = [child(task, 'action'), child(task, 'instructions')].filter((element): element is Element => element !== undefined)
      let found: {sentence: string; item: (typeof work)[number]; start: number} | undefined
      for (const element of asks) {
        for (const sentence of sentences(document, element)) {
          if (legitimate.some((pattern) => pattern.test(sentence.text))) continue
          const item = work.find((candidate) => candidate.regexp.test(sentence.text))
          if (item) {
            found = {sentence: sentence.text.trim(), item, start: sentence.start}
            break
          }
        }
        if (found) break
      }
      if (!found) continue
      const tool = toolFor(found.sentence, found.item)
      const quote = found.sentence.length > 80 ? `${found.sentence.slice(0, 77)}...` : found.sentence
      report({
        message: `This human-action asks a person to ${found.item.work} ("${quote}"), which ${tool} can do: make it an \`auto\` task and keep the checkpoint for what only a person can do (a login, a secret, a verification link)`,
        range: task.openTag
      })
    }
  }
})
