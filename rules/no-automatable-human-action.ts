import {commandWords, commandsIn, isLogin, isLoginCheck, isReleaseAct, isRunAsk, launchesDesktopApp, LineTests, readRanges, runVerb, type CommandAsk} from '../src/commands.js'
import {firstAtLeast, SortedRanges, type Range} from '../src/model/text.js'
import {blankTags, taskType} from '../src/plan.js'
import {defineRule} from '../src/rule.js'
import type {PlanDocument} from '../src/model/document.js'
import type {Element} from '../src/model/markup.js'

/** Work a CLI or API can do; `tool` names what would do it. Patterns are matched case-insensitively. */
export interface AutomatableWork {
  pattern: string
  work: string
  tool: string
  /** Flagged even when the sentence names a secret (an env file the person would write a key into). */
  despiteSecrets?: boolean
  /** A sentence that also matches this (case-insensitive) is not this work. */
  unless?: string
  /** Flagged even when the sentence reads as a login: configuring an auth service ("Authentication → URL Configuration") is not logging in. */
  despiteLogin?: boolean
  /** Flagged even when the sentence asks for an approval: the decision is the person's, writing it into a file the agent's. */
  despiteApproval?: boolean
  /** Matched with the sentence's code spans blanked: a command in a span is read as a command, asked only with its run verb. */
  outsideCode?: boolean
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
  [/\bazure\b/i, 'az'],
  [/\bdocker\b/i, 'docker'],
  [/\bprisma\b/i, 'npx prisma']
]

/** Platforms whose CLI or API creates projects and services, and what they create (not an account: signing up is the person's). */
const platforms = String.raw`\b(supabase|firebase|vercel|netlify|railway|neon|upstash|convex|render|heroku|planetscale|cloudflare|fly\.io|google cloud|gcp|azure|aws)\b`
const platformThings = String.raw`\b(projects?|apps?|sites?|services?|workers?|instances?|resources?|clusters?)\b`

/** Hosting services whose CLI makes a project from the repository and links it (`vercel link`, `netlify init`, `railway init`, `fly launch`). */
const hosts = String.raw`\b(vercel|netlify|railway|render|fly\.io|fly|heroku|cloudflare pages|amplify|koyeb|zeabur|deno deploy)\b`

/** The spec's automatable work in prose. Commands themselves are read by `commandsIn`. */
const builtInWork: AutomatableWork[] = [
  // An ask to deploy, not a mention (`self-deploy role`, `Pre-Deploy Gate`, `before deploy`) nor a requirement id (`DEPLOY-02`).
  {pattern: String.raw`(^|[^\w-])(re)?deploy( it| the| this| your| to| a| an|ing the)\b|^\W*(re)?deploy\b(?!-)`, work: 'deploy', tool: ''},
  // A script of the repository run by name ("run the harvest script"): the Bash tool runs it.
  // A script of the repository run by name ("run the harvest script", "start the harvester"), not one forbidden ("do not run the script"): the Bash tool runs it.
  {
    pattern: String.raw`(?<!(?:\bnot|\bnever|n't) )(\b(run|re-?run|execute|kick off)\b[^.\n]{0,12}|(?<!\bthe )\b(start|launch) )\b(the|our|this) (?:[\w-]+ )?(scripts?|scrapers?|crawlers?|harvesters?|harvest|collectors?)\b`,
    work: 'run scripts',
    tool: 'the Bash tool'
  },
  // A script written in prose with its interpreter, no run verb ("Harvest the listings with python scripts/harvest.py"); in a code span it is a command, asked only with its run verb.
  {pattern: String.raw`\b(python3?|node|bash|ruby|tsx|deno run|uv run|bun run)\s+(\.\/)?[\w./-]{1,80}\.(py|js|mjs|cjs|ts|sh|rb)\b`, work: 'run scripts', tool: 'the Bash tool', outsideCode: true},
  {pattern: String.raw`\b(run|execute|kick off|apply)\b[^.\n]{0,40}\b(build|tests?|test suite|migrations?|migrate|seeds?|seeding|lint|lighthouse|pagespeed)\b`, work: 'run builds, tests and migrations', tool: 'the Bash tool'},
  // SQL the person is told to apply to a database: the agent runs it with psql or the platform's CLI.
  {pattern: String.raw`\b(run|runs|execute|executes|apply|applies)\b[^.\n]{0,40}(\bsql\b|\bddl\b|\w\.sql\b)`, work: 'run SQL against a database', tool: 'psql or the platform\'s CLI'},
  {pattern: String.raw`\bstart\b[^.\n]{0,20}\b(dev |development |local |the )?server\b`, work: 'start servers', tool: 'the Bash tool'},
  {
    pattern: String.raw`(?<![/\x60])\bcreate\b[^.\n]{0,30}\b(database|db|webhooks?|buckets?|tables?|redis|postgres|schema)\b|\b(add|configure|register|set up|point)\b[^.\n]{0,30}\bwebhooks?\b`,
    work: 'create databases, webhooks and buckets',
    tool: ''
  },
  // A project or service on a platform whose CLI or API creates it (`supabase projects create`, `firebase projects:create`, `az … create`).
  {
    pattern: String.raw`\b(create|set up|provision|spin up)\b[^.\n]{0,20}${platforms}[^.\n]{0,20}${platformThings}|${platforms}[^.\n]{0,40}\bcreate\b[^.\n]{0,12}${platformThings}|\bcreate\b[^.\n]{0,12}${platformThings}[^.\n]{0,30}${platforms}`,
    work: 'create projects and services',
    tool: ''
  },
  // A hosting project made in the web UI from the repository ("import the repo into Vercel", "connect the repo to a new Netlify site", New Project, then the repo): the host's CLI makes and links it, even after a sign-in in the same sentence.
  {
    pattern: String.raw`\b(import|connect|link)\b[^.\n]{0,40}\b(repo|repository)\b[^.\n]{0,40}\b(into|to|with|on|in)\b[^.\n]{0,30}${hosts}|${hosts}[^.\n]{0,60}\b(import|connect|link)\b[^.\n]{0,40}\b(repo|repository)\b|\b(new project|add new site|new site|import (an existing|a git|git) (project|repository))\b[^.\n]{0,60}\b(repo|repository)\b`,
    work: 'set up a hosting project',
    tool: '',
    despiteLogin: true
  },
  // A web service set up in a hosting dashboard (New → Web Service, its build and start commands): a blueprint file or the platform's CLI sets it up; signing in and pasting a key stay the person's.
  {
    pattern: String.raw`\b(build|start|install|pre-?deploy|release) commands?\b|\bnew\b[^.\n]{0,12}\b(web services?|static sites?|background workers?|private services?)\b`,
    work: 'set up a hosting service',
    tool: "a blueprint file (`render.yaml`, `railway.json`, `fly.toml`) or the platform's CLI",
    despiteSecrets: true,
    despiteLogin: true
  },
  // Checking that a project exists on a platform (`firebase projects:list`, `supabase projects list`) is a CLI call.
  {
    pattern: String.raw`\b(make sure|ensure|confirm|check|verify)\b[^.\n]{0,30}${platforms}[^.\n]{0,20}${platformThings}[^.\n]{0,30}\bexists?\b`,
    work: 'look up projects and services',
    tool: ''
  },
  {pattern: String.raw`\bcopy\b[^.\n]{0,60}\b(into|to) (the )?[^.\n]{0,30}\b(dashboard|settings|console|config|\.env)\b`, work: 'copy values between services', tool: ''},
  // The folders of a path are not counted in the 60 characters (`.planning/debug/cache-diagnostic-log.md`); a dotfile of settings (`.firebaserc`, `.nvmrc`) is a file too.
  {pattern: String.raw`\b(create|edit|update|write|add|append)\b[^\n]{0,60}?(?:[\w.-]{1,60}\/){0,8}(\.env\b|\.env\.local|config file|log file|\b[\w-]{1,80}\.(json|ya?ml|toml|ts|js|md|log|txt|csv)\b|(?<![\w.-])\.[\w-]{1,40}rc\b)`, work: 'create or edit files', tool: 'the Write tool'},
  // A section or note added to a log or notes file, named by what it is ("add a note to the diagnostic log"): the person's decision goes into it, the agent writes it.
  {
    pattern: String.raw`\b(append|add|write)\b[^.\n]{0,40}\b(sections?|notes?|entry|entries|heading)\b[^.\n]{0,40}\b(to|in|into|at the (end|bottom|top) of)\b[^.\n]{0,40}\b(logs?|journal|changelog|notes file)\b`,
    work: 'create or edit files',
    tool: 'the Write tool',
    despiteApproval: true
  },
  // What a run printed, noted in the plan's log or its state file ("note the output in the phase log", "paste the result into STATE.md"): the agent writes it.
  // "Note" writes only what a run gave (an output, a status), not a field to look at; a service's own log (the build log, the Vercel log) is read, not written; a "decision record" is a noun.
  {
    pattern: String.raw`\b(paste|(?<!\b(?:a|an|the|decision|approval|audit) )record(?!s? ?\()|copy|put|enter|jot down|write down|note\b[^.\n]{0,30}\b(outputs?|results?|outcomes?|status|exit codes?|urls?|values?|ids?|hash(es)?|shas?|versions?|timings?|counts?|numbers))\b[^.\n]{0,40}\b(in|into|to|under)\b[^.\n]{0,30}?((?:[\w.-]{1,60}\/){0,8}[\w.-]{0,60}(state|roadmap|summary|-log)\.md\b|\b(the|your|our|this|that|a) (?!(build|server|console|ci|vercel|railway|netlify|fly|docker|container|function|worker|browser|devtools|app|error|deploy|deployment|system|audit|access|runtime|network|cloudwatch|github|actions|job|workflow|activity|event|edge|supabase|firebase)\b)(?:[\w-]{1,30} )?logs?\b(?![ -](line|lines|path|level|call|calls|strip|entry|entries|output|viewer|stream|tab|panel|page|explorer)\b))`,
    work: 'create or edit files',
    tool: 'the Write tool',
    despiteApproval: true
  },
  // Reading a file the repository holds (a SUMMARY, a log) and acting on what it says is the agent's Read tool, not a person's.
  {pattern: String.raw`\b(read|open)\b[^\n]{0,30}?(?<![\w.-])[\w.-]{0,60}?(summary|report|log|results?|findings?)[\w.-]{0,40}\.(md|json|log|txt)\b[^.\n]{0,80}\b(map|match|pick|choose|classify|record|note|decide|branch|append|copy|write)\b`, work: 'read files and act on them', tool: 'the Read tool'},
  // A value in a public page's code (a captcha sitekey, a public client id): curl or a headless browser reads it.
  {pattern: String.raw`\b(find|get|copy|grab|look up|locate|extract|read)\b[^.\n]{0,60}\b(devtools|dev tools|developer tools|view[- ]source|page source|network tab)\b|\b(devtools|developer tools|network tab)\b[^.\n]{0,60}\b(find|copy|grab|look for|search|extract|locate)\b`, work: "read values off a web page", tool: 'curl or Playwright'},
  // Making icons or images in set sizes from a logo: ImageMagick or sharp does it.
  {pattern: String.raw`\b(generate|create|make|export|resize|produce|render)\b[^.\n]{0,40}(\b(icons?|favicons?|pngs?|app icons?)\b|\b\d{2,4}\s?[x×]\s?\d{2,4}\b)|\b(imagemagick|realfavicongenerator|favicon generator|favicon\.io)\b`, work: 'make images from a source image', tool: 'ImageMagick or sharp', unless: String.raw`\b(screenshots?|photos?|failed|fallback)\b`},
  // An env file is written by the agent even when a secret goes into it: the person pastes the secret, the agent writes the file.
  {pattern: String.raw`\b(create|edit|update|write|add|open|paste|fill|put)\b[^.\n]{0,40}(?<![\w)])\.env\b|(创建|新建|编辑|填写|写入)[^。\n]{0,20}\.env\b`, work: 'create or edit files', tool: 'the Write tool', despiteSecrets: true},
  // A migration pasted into a web SQL editor: the agent applies it with `supabase db push` or psql.
  // Not what was done there ("backfill applied via the SQL Editor"), which a note may quote.
  {pattern: String.raw`\b(sql[ -]?editor|supabase studio)\b`, work: 'run SQL in a web SQL editor', tool: '`supabase db push` or psql', unless: String.raw`\b(applied|ran|executed|aplicad[ao]s?|ejecutad[ao]s?)\b`},
  {
    // Not a bare "Commit …": a commit of the results file closes many tasks whose work is a person's (testing on a phone, recording a video).
    pattern: String.raw`\b(push|merge)(es|ed|ing)?\b[^.\n]{0,20}\b(origin|main|master|branch|remote|commits?)\b|\bcreate(s|d)?\b[^.\n]{0,30}\bbranch\b`,
    work: 'do git work (commit, push, merge)',
    tool: 'git and gh'
  },
  // What is done on GitHub itself, not in git: its pull requests, releases, workflow runs and repository settings (`gh pr`, `gh release`, `gh workflow run`, `gh repo rename`).
  {
    pattern: String.raw`\b(push|merge)(es|ed|ing)?\b[^.\n]{0,20}\b(pr|pull request)\b|\b(open|close|edit|publish)(s|es|ed)?\b[^.\n]{0,20}\b(pr|pull request|release)\b|\brename\b[^.\n]{0,30}\brepo(sitory)?\b|\b(repository|repo) name\b[^.\n]{0,40}\b(rename|change|set)\b|\brename\b[^.\n]{0,40}\bgithub\b|\btrigger(s|ed)?\b[^.\n]{0,30}\b(workflow|ci)\b|\b(enable|configure|set up|turn on)\b[^.\n]{0,30}\bdependabot\b`,
    work: 'do GitHub work (pull requests, releases, workflow runs, repository settings)',
    tool: 'gh'
  },
  // A dashboard setting the service's API or CLI sets, where the plan names it: a DNS record, SMTP host/port/sender, auth URLs.
  // A record named by its type alone ("add a TXT entry", a table row `| CNAME | app | … |` under "add these records:"), not a file's extension (`robots.txt`).
  {
    pattern: String.raw`\b(add|create|set( up)?|configure|update|point|change)\b[^.\n]{0,40}(\b(dns|cname|mx|txt|srv|caa|spf|dkim|dmarc|aaaa)\b[^.\n]{0,20}\b(records?|entry|entries)\b|(?<![\w.-])(cname|mx|txt|aaaa|srv|caa)(?![\w.-]))|\bdns\b[^\n]{0,60}\|\s*(a|aaaa|cname|mx|txt|srv|caa)\s*\|`,
    work: 'add DNS records',
    tool: "the DNS host's API",
    despiteLogin: true
  },
  {
    pattern: String.raw`\bsmtp\b[^.\n]{0,60}\b(host|port|sender)\b|\b(host|port|sender)\b[^.\n]{0,60}\bsmtp\b|\b(site url|redirect urls?|redirect uris?|authori[sz]ed domains?)\b|\b(enable|disable|turn on|turn off|toggle)\b[^.\n]{0,40}\b(email(\/password)? (provider|sign-?ins?)|anonymous sign-?ins?|realtime|row level security|point in time recovery)\b`,
    work: "configure a service's settings",
    tool: '',
    despiteSecrets: true,
    despiteLogin: true
  },
  {pattern: String.raw`\b(env(ironment)? ?var(iable)?s?|secrets?)\b[^.\n]{0,60}\b(dashboard|console|settings|web ui)\b|\b(dashboard|console|settings)\b[^.\n]{0,60}\benv(ironment)? ?var(iable)?s?\b|\b(add|set)\b[^.\n]{0,30}\benv(ironment)? ?var(iable)?s?\b[^.\n]{0,30}${platforms}`, work: 'set environment variables in a dashboard', tool: ''}
]

/** The documented reasons a person must act: auth gates, secrets, verification links, 2FA, 3-D Secure, OAuth consent, approvals, devices, judgement. */
const secretAsks = [
  String.raw`\b(api[ _-]?keys?|secret (key|value)|(signing|webhook|client) secrets?|tokens?|credentials?|passwords?|passphrase|private key)\b`,
  // Taking a secret from a dashboard ("the signing secret from the Stripe dashboard"): only the person can read it there.
  String.raw`\b(secrets?|keys?|tokens?)\b[^.\n]{0,40}\bfrom\b[^.\n]{0,40}\b(dashboard|console|portal|settings)\b`,
  // The cookies of the person's logged-in browser ("the auth cookies", "export the cookies", `cookies.txt`): a credential they hold, as a token is; not a cookie banner.
  String.raw`\b(?:auth(?:entication)?|session|login|browser|fresh|expired|exported|logged[- ]in|signed[- ]in)[ -]cookies?\b|\bcookies?(?:[ -](?:jar|file|export)s?\b|\.(?:txt|json)\b)|\b(?:re-?)?export\w{0,4}\b[^.\n]{0,30}\bcookies?\b|\bcookies?\b[^.\n]{0,40}\bfrom (?:the |your )?(?:logged[- ]in |signed[- ]in )?(?:browser|chrome|firefox|safari|edge|devtools)\b`
].map((pattern) => new RegExp(pattern, 'i'))

/** Logging in: the first of the legitimate asks, which configuring an auth service is not. */
const loginAsk = String.raw`\b(log ?in|login|sign ?in|sign ?up|authenticat\w*|auth login|re-?auth\w*)\b`

/** An approval: a legitimate ask, but for the file the decision is written into. */
const approvalAsk = /\b(approv(e|al)|manual review|kyc|identity verification)\b/i

const builtInLegitimate = [
  loginAsk,
  String.raw`\b(verification (link|email|code)|verify (your )?email|confirm(ation)? email|magic link)\b`,
  String.raw`\b(2fa|mfa|two[- ]factor|sms|one[- ]time (code|password)|otp)\b`,
  String.raw`\b(3-?d ?secure|3ds|credit card|payment (method|details))\b`,
  String.raw`\b(oauth|consent|authori[sz]e the app|grant access)\b`,
  String.raw`\b(physical|device|phone|hardware|usb|qr code|plug)\b`,
  String.raw`\b(purchase|buy|billing|subscribe|payment)\b`,
  // Writing in the person's own voice (a foreword, an announcement they sign) is authorship, not file work.
  String.raw`\b(in (your|their|his|her|my) own (voice|words)|personal (note|statement|voice)|first[- ]person)\b`
]

/** A device in the person's hands: a command run for it (`npx expo start`, then scan the QR code) is theirs to run. */
const deviceWords = /\b(physical|device|phone|hardware|usb|qr code|simulator|emulator)\b/i

/**
 * A line, or the lead or heading over it, that puts the work on a machine the
 * agent does not reach: "On the Win11 VM:", "on the user's VM", "inside the
 * guest", "on the manually bridged host". What runs there (`git revert`
 * too), and launching the app there to read what it shows, is the person's.
 */
const elsewhere =
  /\b(on|in|inside|from|at) (the|your|a|each|that|this|both|my|our|their) [\w ./()'’-]{0,30}?\b(vms?|virtual machines?|guests?|devices?|phones?|tablets?|handsets?)\b|\b(win(dows)? ?1[01]|macos|ubuntu|debian|fedora|windows) (vm|guest|virtual machine|box|laptop|machine)\b|\b(manually[- ]bridged|bridged|air-?gapped|on-?prem(ise)?|remote|customer'?s?|client'?s?) (host|machine|server|network|box)\b/i

/**
 * A line, or the lead, heading, paragraph or fence prose over it, that puts a
 * step back on the machine the agent works on ("On the build host (not the
 * VM):", "on the Linux dev box:", "on this machine", "locally"): in a task
 * whose work is on a VM, that step is still an ask. It wins over a VM named
 * on the same line; "from the host" does not name it ("From the host, ssh
 * into the guest and …" works in the guest).
 */
const onAgentMachine = agentsPlace(String.raw`(?:host|box|machine|server|workstation)\b|\b(?:on|at) the host\b|\bon this (?:machine|host|box|computer)\b|\blocally\b`)

/** A checkout ("in the repo checkout"): a folder, the agent's unless the same line puts it on a machine the agent does not reach ("in the repo checkout on the user's VM"). */
const inCheckout = agentsPlace(String.raw`checkout\b`)

/**
 * "On the build host", "in the repo checkout": a place of the agent's, named by what `thing` (a pattern) says it is;
 * also "on Linux build host" and a line or heading that opens with it ("**Linux build host (before the VM):**").
 */
function agentsPlace(thing: string): RegExp {
  return new RegExp(String.raw`(?:\b(?:on|in|at) (?:the|this|your|our|a) |\bon |^[\s*#>_]*)(?:linux |macos |windows |local |main )?(?:build|dev|development|local|repo|repository|ci)[ -]${thing}`, 'i')
}

/** Where the first of `texts` (a line, then what stands over it) that names a place puts the step: the agent's machine, one it does not reach, or neither. */
function placeOf(texts: string[], lines = new LineTests()): 'agent' | 'elsewhere' | undefined {
  for (const text of texts) {
    if (lines.test(onAgentMachine, text)) return 'agent'
    if (lines.test(elsewhere, text)) return 'elsewhere'
    if (lines.test(inCheckout, text)) return 'agent'
  }
  return undefined
}

/**
 * In a task whose work is on a VM or a device, the person writing down what
 * they observed there ("record the mode and the value it read back in
 * `32-01-PROBE-LOG.md`", "append the findings to the log"): their report,
 * not file work. Not creating a log from a template.
 */
const recordsObservation = /\b(?:record|append|note|write down|jot down|paste|add)\b[^\n]{0,80}?\b(?:log|logs|notes|findings|journal)\b/i
const createsFile = /\b(?:create|template)\b/i

/**
 * What the person saw, heard or read back themselves ("the value you read back
 * in the app", "paste what you heard into the log"): an observation the agent
 * cannot make, so writing it down is the person's report wherever the task is.
 * Not what a run printed ("note the output"), which the agent sees itself.
 */
const observed = /\bwhat you (?:saw|see|heard|hear|noticed|observed|felt)\b|\byou (?:saw|heard|noticed|observed|felt|measured)\b|\bread ?back\b|\b(?:sounds|looks|felt) like\b/i
const runOutput = /\b(?:outputs?|results?|exit codes?|printed|prints|stdout|stderr|logs? lines?)\b/i

/** A log note of the person's own: an observation where the agent does not reach, or one only they could make. */
const recordsOwnObservation = (text: string, worksElsewhere: boolean) =>
  recordsObservation.test(text) && !createsFile.test(text) && (worksElsewhere || (observed.test(text) && !runOutput.test(text)))

/** A forbidding word just before the work's verb ("Do NOT run the full script", "never `npm run build`"): it forbids the work, not asks it; "do not forget to run" asks it. */
const forbidsWork = /(?:\bnot|\bnever|n't|\bavoid|\bwithout)\b(?![^.;,\n]{0,16}\b(?:forget|fail|skip|hesitate|miss|neglect)\b)[^.;,\n]{0,16}$/i

/** Whether the work's verb, the first match of its pattern in `sentence` at `index`, stands after a forbidding word. */
function forbidden(sentence: string, index: number): boolean {
  return forbidsWork.test(sentence.slice(Math.max(0, index - 24), index))
}

/** The files a maintainer's release commit touches (the release-please manifest and config, the changelog): editing them prepares the release. */
const releaseFiles: ReadonlySet<string> = new Set(['release-please-manifest.json', 'release-please-config.json', 'changelog.md'])

/** Whether a text's file names (`fileNames`) are some, and all of them files `owns` holds. */
function namesOnly(named: readonly string[], owns: (file: string) => boolean): boolean {
  return named.length > 0 && named.every(owns)
}

/**
 * The phase's bookkeeping files, by `fileNames`: ROADMAP, STATE, REQUIREMENTS,
 * and the plans and summaries a ROADMAP entry lists. One step updates them
 * together, so a task that gives one to the agent gives it all of them.
 */
const bookkeeping = /^(?:roadmap|state|requirements)\.md$|(?:^|-)(?:plan|summary)\.md$/

/**
 * A line or sentence about what the agent does, not the person: "Claude runs
 * `supabase db push` after approval", "I'll add it via `npx convex env set`",
 * "the migration was applied". The agent is named the same way in most
 * languages (`Claude`, orchestrator, оркестратор, 编排器); "in Claude Code"
 * names the prompt the person types at, not the agent doing it. What follows
 * the person's answer ("After receiving the two URLs, create …", "Once the
 * user replies, write …") is the agent's next step. A step that names the
 * agent's own tool ("(Write tool)", "via the Edit tool") is the agent's.
 */
const agentDoes =
  /\b(claude(?! code\b|\.md\b)|the (executor|agent|orchestrator|planner)|gsd|automatically|already)\b|\b(executor|agent)(?= ?\(| ?:| (runs|will|does|edits|executes|applies|writes|creates|first|then|part|side|step)\b)|\b(i|we)('ll| will|'ve| have| ran| run| created| deployed| applied| added)\b|\b(was|were|has been|have been|is being) (run|executed|applied|deployed|created|added|automated)\b|\b(after|once|upon|on) (receiving|getting)\b|\b(after|once|when) the (user|human|person|owner|maintainer|operator|developer) (replies|responds|answers|confirms|provides|sends|pastes|shares|supplies|gives|has (replied|responded|answered|confirmed|provided|sent|pasted|shared|supplied|given))\b|\((?:the )?(?:write|edit|multiedit|bash|read) tool\)|\bvia (?:the )?(?:write|edit|multiedit|bash)\b|orchestr|orquest|orkestr|оркестр|агент|执行器|编排|协调器|에이전트|오케스트/i

/** A lead or heading that says what the agent cannot do ("Claude cannot provision the runner:") gives the steps under it to the person, not to the agent. */
const negated = /\b(can ?not|can't|unable|doesn't|does not|won't|isn't able)\b|не может|не можем|不能|无法|no puede|ne peut/i

/** Whether a lead or heading gives the lines under it to the agent ("**Automated part (Claude runs it):**"). */
const givesToAgent = (line: string) => agentDoes.test(line) && !negated.test(line)

/**
 * A clause that says, in the third person, what a bot's pull request, a
 * workflow or CI does on its own ("the PR bumps `package.json` and runs `npm
 * version`", "which publishes the release"), from its verb to the clause's
 * end: it describes what the person approves or reviews, not work they are
 * told to do. Group 1 is what stands between the thing and its verb (no comma:
 * "Merge the PR, which …" is the person's merge), group 2 the described part;
 * a verb that is a noun there ("new commits are pushed", "the tags of") is not one.
 */
const thingDoes =
  /\b(?:prs?|pull requests?|bots?|workflows?|jobs?|pipelines?|ci|github actions|hooks?|cron|release[- ]please|dependabot|renovate|changesets|semantic-release|it|which)\b([^.;:,\n]{0,40}?)(?<!\b(?:new|the|a|all|any|its|of|no|open|two|three)\s)(\b(?:runs|updates|bumps|adds|creates|edits|writes|changes|publishes|deploys|pushes|tags|merges|executes|triggers|opens|applies|commits|regenerates|builds|uploads|invokes|calls)\b(?!\s(?:are|were|is|was|of|to|and)\b)(?:[^.!?;\n]|[.!?](?!\s|$)){0,200})/gi

/** A person between the thing and its verb ("the PR that the operator opens"): the person does it. */
const personNamed = /\b(you|your|operator|user|owner|maintainer|human|person|developer|admin|they)\b/i

/** A command said to run by itself ("on approval, `mix hex.publish` runs"), not one said to run cleanly, which asks for a run to check. */
const spanRuns = /`[^`\n]{1,200}`\s{0,2}(?:runs|will run|is run|gets run|executes|is executed|fires)\b(?!\s{1,3}(?:green|clean|cleanly|without|successfully|fine|ok)\b)/gi

/** Words that ask the person to check something ("confirm", "make sure"). */
const checkAsked = /\b(confirm|check|verify|make sure|ensure|see that|test that)\b/i

/** A lead that says what a thing's change holds ("What the bot's PR changes:", "This PR will:"): the items under it describe it. */
const thingLead =
  /\b(?:prs?|pull requests?|bots?|workflows?|jobs?|pipelines?|ci|github actions|release[- ]please|dependabot|renovate|changesets|semantic-release)\b[^.;:\n]{0,40}?\b(?:will|does|did|changes|contains|includes|runs|updates|bumps|adds|makes|touches|modifies)\b/i

/** The clauses of `text` in [from, to) that describe what a thing does (see `thingDoes`, `spanRuns`, `thingLead`). */
function describedIn(text: string, from: number, to: number): Range[] {
  const part = text.slice(from, to)
  const ranges: Range[] = []
  for (const match of part.matchAll(thingDoes)) if (!personNamed.test(match[1])) ranges.push([from + match.index + match[0].length - match[2].length, from + match.index + match[0].length])
  for (const match of part.matchAll(spanRuns)) {
    // "Confirm `npm test` runs" asks for the run it checks.
    if (!checkAsked.test(part.slice(part.lastIndexOf('\n', match.index) + 1, match.index))) ranges.push([from + match.index, from + match.index + match[0].length])
  }
  let lineStart = from
  while (lineStart < to) {
    const newline = text.indexOf('\n', lineStart)
    const lineEnd = newline === -1 || newline > to ? to : newline
    const lead = leadOf(text, lineStart, from)
    if (thingLead.test(lead) && !personNamed.test(lead)) ranges.push([lineStart, lineEnd])
    lineStart = lineEnd + 1
  }
  return ranges
}

/** `text` (which starts at `offset`) with the parts in `ranges` blanked to spaces, in one pass over it. */
function blanked(text: string, offset: number, ranges: SortedRanges): string {
  const parts: string[] = []
  let at = 0
  for (const [start, end] of ranges.within(offset, offset + text.length)) {
    const from = Math.max(0, start - offset)
    const to = Math.min(text.length, end - offset)
    parts.push(text.slice(at, from), ' '.repeat(to - from))
    at = to
  }
  return at === 0 ? text : parts.join('') + text.slice(at)
}

/** The agent handing the person steps ("Claude posts this checklist and waits, these are dashboard steps: "), up to the colon before them. */
const handsOver = /\b(?:posts|shows|gives|sends|lists|presents|hands|prints|displays)\b[^.:\n]{0,40}\b(?:checklists?|steps|instructions|list|these|the following)\b[^:\n]{0,80}:\s/i

/** A sentence whose opening is the agent handing over steps: the steps after its colon, read on their own as the person's. */
function handedOver(sentence: {text: string; start: number}): {text: string; start: number} {
  const handing = handsOver.exec(sentence.text)
  if (!handing || !agentDoes.test(sentence.text.slice(0, handing.index))) return sentence
  const cut = handing.index + handing[0].length
  return {text: sentence.text.slice(cut), start: sentence.start + cut}
}

/** `text` with its code spans blanked to spaces, offsets kept. */
const outsideSpans = (text: string) => text.replace(/`[^`\n]{1,400}`/g, (span) => ' '.repeat(span.length))

/**
 * A sentence that edits a file ("Claude updates `ROADMAP.md`", "the executor
 * will mark the plan done"), the agent named after the verb too ("the entry is
 * set to complete by Claude").
 */
const editsFile = /\b(?:updat(?:e|es|ed)|edit(?:s|ed)?|writes?|written|mark(?:s|ed)?|record(?:s|ed)?|append(?:s|ed)?|fill(?:s|ed)?|add(?:s|ed)?|creat(?:e|es|ed)|tick(?:s|ed)?|flip(?:s|ped)?|sets?|mov(?:e|es|ed)|clos(?:e|es|ed)|toggl(?:e|es|ed))\b/i

/** The files a sentence names, by their last path segment, lower case (`ROADMAP.md`, `package.json`). */
// The planning files named bare ("flips the ROADMAP entry", "the roadmap's entry", STATE in capitals: "state" is a word) are those files.
const fileNames = (text: string) => [
  ...[...text.matchAll(/[\w-]{1,80}\.(?:md|json|ya?ml|toml|ts|js|txt|csv|log)\b/gi)].map((match) => match[0].toLowerCase()),
  ...[...text.matchAll(/\b(?:[Rr]oadmap|ROADMAP|STATE)\b(?!\.\w)/g)].map((match) => `${match[0].toLowerCase()}.md`)
]

/**
 * A task's name that puts its work where only a person is: on a physical
 * device, a simulator or a virtual machine, in a video they record, in user
 * acceptance testing. The build that goes onto the phone and the commit of the
 * results are then steps around the person's work, not work to hand over.
 */
const humanOnlyName =
  /\b(physical|real) (devices?|phones?|iphones?|ipads?|android|hardware)\b|\bon (a |the |your |each |both |two )?(devices?|phones?|iphones?|ipads?|android|tablets?)\b|\b(simulators?|emulators?|vms?|virtual machines?|raspberry pi|screencast)\b|(?<![\w.-])uat(?![\w.-])|\b(record|film|narrat\w*)\b[^.\n]{0,30}\b(video|demo|walkthrough)\b/i

/**
 * The plan saying the agent cannot reach where the work is (a phone, a
 * customer's server, a VM; "which the agent cannot reach", "no agent
 * access"), cannot make it (audio, a recording), cannot run
 * what needs the person's password (`sudo`), or that the service has no API or
 * CLI for it. Not "cannot access the dashboard": the service's CLI or API
 * reaches what its dashboard does.
 */
const agentCannotReach =
  /\b(claude|the agent|the executor|agents?|executor|ai)\b[^.\n]{0,12}\b(can't|can ?not|is unable to|has no access to|does not have access to|doesn't have access to)\b[^.\n]{0,60}\b(devices?|phones?|iphones?|ipads?|android|simulators?|emulators?|vms?|virtual machines?|servers?|hosts?|machines?|hardware|generate|record|capture|drive|sudo|root|administrator|elevated|privileged)\b|\b(claude|the agent|the executor|agents?|executor|ai)\b[^.\n]{0,12}\b(can't|can ?not|is unable to) (reach|ssh)\b|\b(no|without) (agent|claude|executor) access\b|\b(sudo|root)\b[^.\n]{0,40}\b(needs?|requires?|asks? for|prompts? for)\b[^.\n]{0,20}\bpassword\b|\b(has|have|with|offers?|provides?) no (public )?(api|cli)\b|\bno (public )?(api|cli) (for|to)\b/i

/** A manual fallback the plan keeps for when its automated way has failed ("only if Task 1's CLI generators all failed"). */
const automationFailed = /\bfallback only\b|\bonly (invoked |run |used )?(if|when)\b[^.\n]{0,60}\b(cli|automat\w*|scripts?|generators?|tools?|commands?)\b[^.\n]{0,30}\bfailed\b/i

/** Children that say what the agent checks or how to answer, not what the person is told to do. */
const notAsks = new Set(['verification', 'verify', 'automated', 'done', 'resume-signal', 'files', 'read_first', 'acceptance_criteria', 'what-built', 'what-checked', 'precondition'])

/**
 * Commands that make or store a secret the person holds (`fly secrets set`,
 * `vercel env add`, `aws secretsmanager put-secret-value`, `openssl rand`):
 * providing a secret is a documented ask.
 */
function handlesSecret(words: string[]): boolean {
  const rest = words.slice(1)
  if (['ssh-keygen', 'pwgen', 'uuidgen'].includes(words[0]) || (words[0] === 'openssl' && /^(rand|genrsa|genpkey|req)$/.test(rest[0] ?? ''))) return true
  return rest.some((word) => /secret/.test(word)) || /\b(env (add|set)|variables set|config:set)\b/.test(rest.join(' '))
}

/**
 * A condition that the person's session has lapsed ("if the session expired",
 * "when the cookie is stale", "if you are logged out"): a command run under it
 * ("log in again and rerun `npm run sync:push`") is the tail of their login,
 * the fallback of their step, not a step of its own.
 */
const staleSession =
  /\b(?:if|when|once|should|in case)\b[^.\n]{0,40}\b(?:session|cookie|token|login|sign-?in)s?\b[^.\n]{0,30}\b(?:expired?|expires|stale|timed? out|times out|invalid(?:ated)?|lapsed)\b|\b(?:if|when|in case)\b[^.\n]{0,30}\b(?:expired|stale|invalid)\s(?:session|cookie|token|login)s?\b|\b(?:if|when)\b[^.\n]{0,20}\b(?:logged|signed) out\b/i

/**
 * A task that renews a credential the person holds ("Refresh the portal
 * cookies", "re-export the session cookies") or says it lapsed ("the portal
 * session expired"): an authentication gate. Its rerun ("re-run the harvest",
 * "run `sync` again") is the retry the gate unblocks ("user authenticates →
 * Claude retries"), and its run to check the fresh credential ("to confirm
 * the cookies work"), asked of the person or not, not a step of its own.
 */
const renewsCredential =
  /\b(?:refresh|renew|re-?export|re-?capture|rotate|replace|regenerate)\w{0,3}\b[^.\n]{0,40}\b(?:cookies?|sessions?|credentials?|tokens?|logins?)\b|\b(?:session|cookie|token|login|sign-?in)s?\b[^.\n]{0,30}\b(?:expired?|expires|stale|timed? out|lapsed|invalid(?:ated)?)\b|\b(?:expired|stale|lapsed)\s(?:\w{1,20}\s)?(?:session|cookie|token|login|credential)s?\b/i
const reruns = /\b(?:re-?run|re-?try|again|re-?execute)\b|\bto (?:confirm|check|verify|test|see)\b[^.\n]{0,40}\b(?:cookies?|sessions?|logins?|tokens?|credentials?)\b/i

/** Where the sentences of a context end: after each `.`, `!`, `?` or `;` before a space or the end. */
function sentenceEnds(context: string): number[] {
  return [...context.matchAll(/[.!?;](?=\s|$)/g)].map((match) => match.index + 1)
}

/** The sentence of a command's context that holds the command (for a fenced one, with the prose line before the fence), from the context's sentence ends. */
function sentenceOf({context, text, at}: CommandAsk, ends: number[]): string {
  // The last end before the command with a space after it still before the command, and the first end after it.
  let low = firstAtLeast(ends, at)
  const start = low > 0 ? ends[low - 1] : 0
  while (low < ends.length && ends[low] <= at + text.length) low++
  return context.slice(start, low < ends.length ? ends[low] : undefined)
}

/** A task that asks the person to approve (a deployment gate the platform enforces, the agent's results). */
const approves = /\b(approv|aprob|aprueb)/i

/** A release a maintainer reviews: its name or text says release, tag or publish, and review or sign-off. */
const releases = /\b(releases?|tags?|publish\w*)\b|发布|リリース|релиз|publica/i
const reviews = /\b(review\w*|approv\w*|maintainer|sign[- ]?off|one-way|irreversible|locked)\b|审核|审查|レビュー|ревью|revis/i

/**
 * A release trigger only a maintainer may pull, review or not: a release
 * commit (`Release-As: 2.0.0`, read by release-please), the merge of the
 * release PR that publishes, and the run of the release workflow ("trigger the
 * Release workflow", `gh workflow run release.yml`). The authority is theirs,
 * not a step to automate.
 */
const releaseTrigger =
  /\brelease-as:|\b(?:merge|approve)\b[^.\n]{0,40}\b(?:release[- ]please|release|version packages)\b[^.\n]{0,12}\b(?:prs?|pull requests?)\b|\b(?:trigger|run|dispatch|start|kick off)\w{0,3}\b[^.\n]{0,30}\b(?:release|publish)\w{0,3}\b(?:\.ya?ml\b)?[^.\n]{0,20}\bworkflows?\b|\bgh workflow run [\w-]{0,30}(?:release|publish)/i

/**
 * A line asking the person for a value (an id, a name, a branch): a read-only
 * command on it (`firebase projects:list`, `gh repo view`) looks the value up,
 * which the agent does itself once the CLI is logged in.
 */
const looksUpValue = /\b(?:find|look ?up|get|read|fetch|grab|copy|paste|note|tell|report|send|give)\b[^\n]{0,60}?\b(?:ids?|numbers?|names?|urls?|value|ref|region|branch(?:es)?|sha|hash|version|endpoint|slug)\b/i

/** A review the plan reserves for the maintainer ("MAINTAINER REVIEW REQUIRED", "maintainer sign-off"). */
const maintainerReview = /\bmaintainer\b[^.\n]{0,20}\b(review|approv|sign)/i

/** A line that heads a part of the task: a Markdown heading, a bold line, a `【…】` line. */
const headingLine = /^\s*(?:#{1,6}\s|\*\*[^*\n]+\*\*[:：]?\s*$|【[^】\n]*】\s*$)/

/**
 * A line that titles a part of the task: a Markdown heading, a `=== … ===` banner, or a bold label ending in a colon over the steps it names
 * ("**Action A — Deploy the function:**"); not another bold line, which may be a step: "**Step 1 — Apply the migration.**".
 */
const titleLine = /^\s*(?:#{1,6}\s|={2,}[^=\n]{1,80}={2,}\s*$|\*\*[^*\n]{1,120}(?:[:：]\*\*|\*\*[:：])\s*$)/

/** A list item, a table row or a `Key: value` setting line: read with the line that introduces it. */
const itemLine = /^\s*(?:[-*+]\s|\d+[.)]\s|\|)|^\s*[\w][\w ./()-]{0,30}:\s+\S/

/** A list item or a table row (not a `Key: value` line, which may state a setting: "In the Windows VM: …"). */
const listItem = /^\s*(?:[-*+]\s|\d+[.)]\s|\|)/

/** The lines of `text` before `offset` inside [from, offset), last first, at most `limit` of them. */
function* linesBefore(text: string, offset: number, from: number, limit: number): Generator<string> {
  let end = text.lastIndexOf('\n', offset - 1)
  for (let count = 0; count < limit && end >= from; count++) {
    const start = Math.max(from, text.lastIndexOf('\n', end - 1) + 1)
    yield text.slice(start, end)
    end = start - 1
  }
}

/**
 * The line that introduces the list, table or settings a line at `offset`
 * stands in ("Add these records at the registrar:", "Step 3 — SMTP:"): the
 * nearest line before it, over items and blank lines, that is not an item
 * itself or ends with a colon. Empty when the line is not an item.
 */
function leadOf(text: string, offset: number, from: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1
  if (!itemLine.test(text.slice(lineStart, text.indexOf('\n', offset) === -1 ? undefined : text.indexOf('\n', offset)))) return ''
  for (const line of linesBefore(text, lineStart, from, 40)) {
    if (line.trim() === '') continue
    if (!itemLine.test(line) || /[:：]\s*$/.test(line)) return line.trim()
  }
  return ''
}

/** The first line of the paragraph a line at `offset` stands in, when neither is a list item: what opens it ("On the Linux dev box:"), or empty. */
function paragraphOpening(text: string, offset: number, from: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1
  const lineEnd = text.indexOf('\n', offset)
  if (itemLine.test(text.slice(lineStart, lineEnd === -1 ? undefined : lineEnd))) return ''
  let opening = ''
  for (const line of linesBefore(text, lineStart, from, 20)) {
    if (line.trim() === '') break
    if (itemLine.test(line)) return ''
    opening = line.trim()
  }
  return opening
}

/** The nearest line of prose before `offset`, over blank lines, fence lines and commands: what introduces a fenced block ("On the Win11 VM, open PowerShell:"). */
function proseBefore(text: string, offset: number, from: number): string {
  for (const line of linesBefore(text, text.lastIndexOf('\n', offset - 1) + 1, from, 12)) {
    const trimmed = line.trim()
    if (trimmed !== '' && !/^(`{3,}|~{3,})/.test(trimmed) && commandWords(trimmed.replace(/^\$\s+/, '')) === undefined) return trimmed
  }
  return ''
}

/** The heading of the part of the task a line at `offset` stands in ("**Automated part (Claude runs it):**"), or empty. */
function sectionOf(text: string, offset: number, from: number): string {
  for (const line of linesBefore(text, text.lastIndexOf('\n', offset - 1) + 1, from, 80)) if (headingLine.test(line)) return line.trim()
  return ''
}

/**
 * What stands over the lines of `text` (a line's lead, its paragraph's
 * opening, its section's heading, the prose before it), each found once a line
 * and range start: a line of many sentences is read once, not once a sentence
 * (64 KB of "Run. a." on one line took 4 s).
 */
class LinesOver {
  private readonly lineStarts = [0]
  private readonly found = new Map<(text: string, lineStart: number, from: number) => string, Map<number, Map<number, string>>>()

  constructor(private readonly text: string) {
    for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) this.lineStarts.push(index + 1)
  }

  lead(offset: number, from: number): string {
    return this.once(leadOf, offset, from)
  }

  paragraphOpening(offset: number, from: number): string {
    return this.once(paragraphOpening, offset, from)
  }

  section(offset: number, from: number): string {
    return this.once(sectionOf, offset, from)
  }

  proseBefore(offset: number, from: number): string {
    return this.once(proseBefore, offset, from)
  }

  /** The line that holds `offset`. */
  lineAt(offset: number): string {
    const start = this.lineStartOf(offset)
    const end = this.text.indexOf('\n', start)
    return this.text.slice(start, end === -1 ? undefined : end)
  }

  private once(find: (text: string, lineStart: number, from: number) => string, offset: number, from: number): string {
    const lineStart = this.lineStartOf(offset)
    let byLine = this.found.get(find)
    if (!byLine) this.found.set(find, (byLine = new Map()))
    let byFrom = byLine.get(lineStart)
    if (!byFrom) byLine.set(lineStart, (byFrom = new Map()))
    let value = byFrom.get(from)
    if (value === undefined) byFrom.set(from, (value = find(this.text, lineStart, from)))
    return value
  }

  private lineStartOf(offset: number): number {
    let low = 0
    let high = this.lineStarts.length - 1
    while (low < high) {
      const middle = (low + high + 1) >> 1
      if (this.lineStarts[middle] <= offset) low = middle
      else high = middle - 1
    }
    return this.lineStarts[low]
  }
}

/**
 * A command that only reads (`gh run list`, `gh pr checks`, `gh api` without a
 * method or fields, `flyctl releases`, `git log`, a plain `curl`): in an
 * approval or release gate, the look the person takes before deciding, not work.
 */
function isLookup({words, text}: CommandAsk): boolean {
  const [program, ...rest] = words
  if (program === 'git') return looksAtGit(rest[0], text)
  if (program === 'sql') return ['select', 'with', 'show', 'explain'].includes(rest[0])
  if (program === 'gh' && rest[0] === 'api') return !/\s(-X|--method|-f|-F|--field|--raw-field|--input)\b/.test(text) || /\s(-X|--method)\s*GET\b/i.test(text)
  if (program === 'curl') return !/\s(-X|--request|-d|--data[\w-]*|-F|--form|-T|--upload-file|--json)\b/.test(text) || /\s(-X|--request)\s*GET\b/i.test(text)
  return (
    ['cat', 'ls', 'head', 'tail', 'less', 'grep', 'rg', 'wc', 'jq', 'diff', 'find', 'echo', 'dig', 'nslookup'].includes(program) ||
    isLoginCheck(words) ||
    rest.some((word) => /^(view|releases|logs?|get|describe|history|diff|show|rev-parse|checks|list|ls|status|watch)$/.test(word))
  )
}

/**
 * A git command that changes nothing in the working tree: the log, a diff,
 * fetching the remote's refs and tags, listing tags or branches. After a
 * merge, the look at what landed (`git fetch --tags`, `git tag --list`).
 */
function looksAtGit(subcommand: string | undefined, text: string): boolean {
  if (subcommand === 'tag') return /^git\s+tag\s*$/.test(text) || /\s(?:-l|--list)\b/.test(text)
  if (subcommand === 'branch') return /^git\s+branch\s*$/.test(text) || /\s(?:--list|-a|-r|--show-current|-vv?|--contains|--merged)\b/.test(text)
  if (subcommand === 'remote') return /\s-v\b/.test(text)
  return ['log', 'show', 'status', 'diff', 'fetch', 'describe', 'shortlog', 'rev-list', 'rev-parse', 'ls-remote', 'show-ref', 'reflog', 'blame'].includes(subcommand ?? '')
}

/** A task that has the person confirm what a merge brought ("once the PR has merged, confirm the tag"): the git or gh look at it is theirs. */
const confirmsLanded = (text: string) => /\b(merged|landed|lands|after (?:the )?merge)\b/i.test(text) && /\b(confirm|verify|check)/i.test(text)

/**
 * A code span holding only a script's path (`scripts/deploy.sh`) that the
 * words just before it do not tell the person to run, nor (on a line of
 * nothing but the span) its lead: a file named, to look at, not a command.
 */
function namesScriptFile(command: CommandAsk, lead: string): boolean {
  if (command.form !== 'span' || command.text !== command.words[0] || !command.text.includes('/')) return false
  const before = command.context.slice(0, command.context.indexOf(command.text)).trim()
  const wordsBefore = before.split(/\s+/).filter((word) => !/^`+$/.test(word))
  const justBefore = wordsBefore.slice(-3).join(' ')
  const after = command.context.slice(command.context.indexOf(command.text) + command.text.length)
  // "Run this from the repo root: `scripts/seed.sh`": a colon hands the line's run verb to the span.
  return !runVerb.test(justBefore) && !(wordsBefore.at(-1)?.endsWith(':') === true && runVerb.test(before)) && !/^`?\W{0,6}(?:run|execute|ejecut|запуст|выполн)/i.test(after) && !(/^(?:(?:[-*+]|\d+[.)])\s*)?`*$/.test(before) && runVerb.test(lead))
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

/** What stands before a sentence's work verb when it is an imperative: nothing but a list marker, or the end of a clause ("Then rename …", "…, rename …", "you need to rename …"). */
const sentenceOpening = /^\s*(?:(?:[-*+>]|\d+[.)])\s*)?$/
const clauseOpening = /(?:[,;:(]|\b(?:then|and|please|now|first|next|also|to))\s*$/i

/** Whether the work's verb, the first match of its pattern in `sentence` at `index`, opens the sentence or a clause of it, as the verb of an imperative does; "After this rename, it lives at …" names the work and asks nothing. */
function asksImperatively(sentence: string, index: number): boolean {
  // Only a few words before the verb are read, so a long sentence costs no more.
  const before = sentence.slice(Math.max(0, index - 16), index)
  return (index <= 16 && sentenceOpening.test(before)) || clauseOpening.test(before)
}

/** Children that state where the task happens, as a whole. */
const settings = new Set(['context', 'objective', 'environment', 'where', 'setup'])

/**
 * The task's own statement of where its work happens, which carries to every
 * step: its setting children (`<context>In the Windows VM: …</context>`) and
 * the opening line of each child the person reads, when it is no list item
 * ("In the Windows VM:" over "Steps:" and the list).
 */
function statementsOf(document: PlanDocument, task: Element): string[] {
  return task.children
    .filter((child) => !notAsks.has(child.name))
    .map((child) => {
      const content = document.text.slice(child.contentRange[0], child.contentRange[1])
      if (settings.has(child.name)) return content
      const opening = content.split('\n').find((line) => line.trim() !== '') ?? ''
      return listItem.test(opening) ? '' : opening
    })
}

/** Whether a task's name or one of its own statements puts its work on a VM, a guest or a device; a statement that names the agent's machine does not. */
function placedElsewhere(document: PlanDocument, task: Element, name: string): boolean {
  return [name, ...statementsOf(document, task)].some((statement) => placeOf([statement]) === 'elsewhere')
}

/** A task's name: its `<name>`, its `name` attribute, or its first line. */
function nameOf(document: PlanDocument, task: Element): string {
  const nameElement = task.children.find((child) => child.name === 'name')
  return nameElement
    ? document.text.slice(nameElement.contentRange[0], nameElement.contentRange[1])
    : (task.attributes.find((attribute) => attribute.name === 'name')?.value ?? document.text.slice(task.contentRange[0], task.contentRange[1]).trim().split('\n')[0])
}

/** Whether a task's work is a person's as a whole (but for the steps it puts on the agent's machine): its name or context puts it on a device, a VM or a video, or the plan says the agent cannot reach it. */
function isHumanOnly(document: PlanDocument, task: Element): boolean {
  const name = nameOf(document, task)
  return humanOnlyName.test(name) || placedElsewhere(document, task, name) || statesAgentCannot(document, task)
}

/** The plan's word that the agent cannot do the task's work (`agentCannotReach`), or that it is the fallback of automation that failed: it holds for every step, the host's too. */
function statesAgentCannot(document: PlanDocument, task: Element): boolean {
  const text = document.text.slice(task.contentRange[0], task.contentRange[1])
  return agentCannotReach.test(text) || automationFailed.test(`${nameOf(document, task)}\n${text}`)
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
    const work = [...builtInWork, ...options.automatable].map((item) => ({...item, regexp: new RegExp(item.pattern, 'i'), except: item.unless === undefined ? undefined : new RegExp(item.unless, 'i')}))
    const legitimate = [...builtInLegitimate, ...options.legitimate].map((pattern) => new RegExp(pattern, 'i'))
    const [login, ...otherLegitimate] = legitimate
    const morePrograms = new Set(options.commands)
    // Built on the first human-action task: most plans have none.
    let prose: string | undefined
    let documentLines: LinesOver | undefined
    let proseLines: LinesOver | undefined
    const lines = new LineTests()
    const endsOf = new Map<string, number[]>()
    const sentenceEndsOf = (context: string) => endsOf.get(context) ?? endsOf.set(context, sentenceEnds(context)).get(context)!
    for (const task of document.tasks) {
      if (taskType(task) !== 'checkpoint:human-action') continue
      // A person's task as a whole still asks for the steps it puts on the agent's machine ("On the build host: run `pytest`"), and only for those.
      const overDocument = (documentLines ??= new LinesOver(document.text))
      const humanOnly = isHumanOnly(document, task)
      const agentCannot = humanOnly && statesAgentCannot(document, task)
      const ranges = readRanges(task, notAsks)
      const asked = ranges.map(([start, end]) => document.text.slice(start, end)).join('\n')
      const approval = approves.test(asked)
      // A release the maintainer reviews: the push or publish and the look at the tree before it are the gate.
      const given = commandsIn(document, ranges, morePrograms, {slashCommands: true, sql: true})
      const releaseGate = (releases.test(asked) && reviews.test(asked)) || releaseTrigger.test(asked) || given.some((command) => isReleaseAct(command.words, {registryOnly: true}))
      // A maintainer's review the plan marks as such ("MAINTAINER REVIEW REQUIRED") is a gate as an approval is.
      const gate = approval || releaseGate || maintainerReview.test(asked)
      const readParts = new SortedRanges(ranges)
      const rangeOf = (offset: number) => readParts.holding(offset)?.[0] ?? offset
      const fenceStart = (offset: number) => document.fenced.holding(offset)?.[0] ?? offset
      // A fence under the prose that gives it to the agent ("Claude runs the capture and the checks below:", a blank line, the fence) is the agent's too.
      const partOfAgent = (offset: number) =>
        givesToAgent(overDocument.section(offset, rangeOf(offset))) ||
        givesToAgent(overDocument.lead(offset, rangeOf(offset))) ||
        (fenceStart(offset) !== offset && givesToAgent(overDocument.proseBefore(fenceStart(offset), rangeOf(offset))))
      const taskText = document.text.slice(task.contentRange[0], task.contentRange[1])
      // A line and what stands over it, nearest first: its lead, its paragraph's opening, its section's heading.
      const over = (lines: LinesOver, offset: number, line: string) => [line, lines.lead(offset, rangeOf(offset)), lines.paragraphOpening(offset, rangeOf(offset)), lines.section(offset, rangeOf(offset))]
      // In a person's task, every step is on their machine but those put on the agent's.
      const notAgents = (texts: string[]) => agentCannot || (humanOnly ? placeOf(texts, lines) !== 'agent' : placeOf(texts, lines) === 'elsewhere')
      const onOtherMachine = (offset: number, line: string) => notAgents([...over(overDocument, offset, line), overDocument.proseBefore(fenceStart(offset), rangeOf(offset))])
      // Where the person works on a VM or a device, what they write down of it is their report.
      const worksElsewhere = humanOnlyName.test(nameOf(document, task)) || elsewhere.test(taskText)
      // In a task that logs the person in, a command that only lists what the login reached is the login's check.
      const logsIn = given.some((command) => isLogin(command.words))
      const authGate = renewsCredential.test(asked)
      // A command the person runs where the agent does not reach, or that opens the app for them to use, takes its sentence with it.
      const theirs = given.filter((command) => onOtherMachine(command.range[0], command.context) || launchesDesktopApp(command, taskText, lines)).map((command) => command.range)
      const isTheirs = new Set(theirs)
      prose ??= proseOf(document)
      const overProse = (proseLines ??= new LinesOver(prose))
      const proseText = prose
      // What a bot's PR, a workflow or CI does by itself, said in the task: described, not asked.
      const described = SortedRanges.union(ranges.flatMap(([start, end]) => describedIn(proseText, start, end)))
      const isDescribed = (offset: number) => described.holding(offset) !== undefined
      // The person's look before deciding: any read-only command in a gate; a git or gh one where they confirm what a merge brought and do no git work themselves.
      const gitOrGh = given.filter((command) => ['git', 'gh'].includes(command.words[0]))
      const landed = confirmsLanded(asked) && gitOrGh.every(isLookup)
      const looksBeforeDeciding = (command: CommandAsk) => isLookup(command) && (gate || (landed && ['git', 'gh'].includes(command.words[0])))
      const commands = given.filter((command: CommandAsk) => {
        // The command's sentence, worked out on first use and once for every test that reads it.
        let sentence: string | undefined
        const sentenceOfCommand = () => (sentence ??= sentenceOf(command, sentenceEndsOf(command.context)))
        // A read-only command on a line that asks for a value is a look-up asked for, run verb or not ("Find the branch (`gh repo view`)").
        const looksUp = () => isLookup(command) && lines.test(looksUpValue, sentenceOfCommand())
        return (
          (isRunAsk(command, lines) || (command.form === 'span' && looksUp())) &&
          !looksBeforeDeciding(command) &&
          !isDescribed(command.range[0]) &&
          !namesScriptFile(command, overDocument.lead(command.range[0], rangeOf(command.range[0]))) &&
          !isReleaseAct(command.words, {registryOnly: !releaseGate}) &&
          !partOfAgent(command.range[0]) &&
          !isLogin(command.words) &&
          !(logsIn && isLoginCheck(command.words) && !looksUp()) &&
          !staleSession.test(sentenceOfCommand()) &&
          !(authGate && reruns.test(sentenceOfCommand())) &&
          !handlesSecret(command.words) &&
          // The command's own words (`/gsd:verify-work`) do not say who runs it.
          !lines.testWithout(agentDoes, command) &&
          !lines.test(deviceWords, command.context) &&
          !isTheirs.has(command.range) &&
          !legitimate.slice(builtInLegitimate.length).some((pattern) => lines.test(pattern, command.context))
        )
      })
      const sentences = ranges.flatMap(([start, end]) => sentencesIn(proseText, start, end)).map(handedOver)
      // A task's `<context>` mostly says how things stand (now, or after the change): only its imperatives ask.
      const contexts = new SortedRanges(task.children.filter((child) => child.name === 'context').map((child) => child.contentRange))
      // Files the task gives to the agent anywhere in it ("Claude updates `ROADMAP.md` after you confirm") are the agent's wherever it names them.
      const agentFiles = new Set(
        sentencesIn(proseText, task.contentRange[0], task.contentRange[1])
          .filter((sentence) => givesToAgent(sentence.text) && editsFile.test(sentence.text))
          .flatMap((sentence) => fileNames(sentence.text))
      )
      const keepsBooks = [...agentFiles].some((file) => bookkeeping.test(file))
      const agentOwns = (file: string) => agentFiles.has(file) || (keepsBooks && bookkeeping.test(file))
      const asks: Array<{range: Range; message: string}> = commands.map((command) => ({
        range: command.range,
        message:
          command.form === 'slash'
            ? `This human-action asks a person to run the slash command \`${quoted(command.text)}\`, which the agent can run itself`
            : command.form === 'sql'
              ? `This human-action asks a person to run the SQL \`${quoted(command.text)}\`, which the executor can run with psql or the platform's CLI`
              : `This human-action asks a person to run \`${quoted(command.text)}\`, which the executor can run with the Bash tool`
      }))
      const taken = SortedRanges.union([...asks.map((ask) => ask.range), ...theirs])
      for (const sentence of sentences) {
        const from = rangeOf(sentence.start)
        const lead = overProse.lead(sentence.start, from)
        const section = overProse.section(sentence.start, from)
        if (agentDoes.test(sentence.text) || givesToAgent(lead) || givesToAgent(section) || notAgents(over(overProse, sentence.start, sentence.text)) || [sentence.text, lead, section].some((text) => otherLegitimate.some((pattern) => pattern.test(text)))) continue
        const asksApproval = [sentence.text, lead, section].some((text) => approvalAsk.test(text))
        const inContext = contexts.holding(sentence.start) !== undefined
        // An item is read with the line that introduces it: "Add these records:" and "| TXT | send | … |" are one ask.
        const asking = blanked(sentence.text, sentence.start, described)
        const read = lead === '' ? asking : `${lead} ${asking}`
        const item = work.find((candidate) => {
          // In a gate, the git and GitHub work (merging the release PR) and the reading before it are the gate itself.
          if (asksApproval && candidate.despiteApproval !== true) return false
          if ((releaseGate && (candidate.work.startsWith('do git work') || candidate.work.startsWith('do GitHub work'))) || (gate && candidate.work.startsWith('read files'))) return false
          // The sentence asks it by itself, or with its lead ("Add these records:" and "| TXT | … |"); what the lead asks by itself it asks once, as its own sentence.
          const [sentenceRead, withLead, leadRead] = candidate.outsideCode === true ? [outsideSpans(asking), outsideSpans(read), outsideSpans(lead)] : [asking, read, lead]
          const alone = candidate.regexp.test(sentenceRead)
          if (!alone && !(lead !== '' && candidate.regexp.test(withLead) && !candidate.regexp.test(leadRead))) return false
          const basis = alone ? asking : read
          // Where the work's verb stands, read by both the imperative and the forbidding test.
          const verbAt = candidate.regexp.exec(basis)?.index ?? 0
          if (inContext && !asksImperatively(basis, verbAt)) return false
          // In an auth gate, the rerun of a script or a run the fresh credential unblocks is the gate's retry.
          if (authGate && candidate.tool === 'the Bash tool' && candidate.work.startsWith('run') && reruns.test(basis)) return false
          if (candidate.work === 'create or edit files') {
            const named = fileNames(basis)
            if (namesOnly(named, agentOwns) || recordsOwnObservation(basis, worksElsewhere) || (releaseGate && namesOnly(named, (file) => releaseFiles.has(file)))) return false
          }
          if (forbidden(basis, verbAt)) return false
          return (
            (candidate.despiteSecrets === true || !secretAsks.some((pattern) => pattern.test(basis))) &&
            (candidate.despiteLogin === true || !login.test(basis)) &&
            !candidate.except?.test(basis)
          )
        })
        if (!item) continue
        const text = sentence.text.trim().replace(/^[-*+]\s+/, '')
        const start = sentence.start + sentence.text.indexOf(text)
        // Sentences are apart, so only a command's ask or a command of the person's can hold this one.
        if (taken.overlaps(start, start + text.length)) continue
        asks.push({range: [start, start + text.length], message: `This human-action asks a person to ${item.work} ("${quoted(text)}"), which ${toolFor(read, item)} can do`})
      }
      if (asks.length === 0) continue
      // The name and a title line ("## Apply the migration", "=== RUN MIGRATIONS ===") say what the task is about, its steps what the person is told to do: the message quotes a step's ask, and counts the others.
      const nameRange = task.children.find((child) => child.name === 'name')?.contentRange
      const titles = ({range}: {range: Range}) =>
        (nameRange !== undefined && range[0] >= nameRange[0] && range[1] <= nameRange[1]) || titleLine.test(overDocument.lineAt(range[0])) ? 1 : 0
      asks.sort((a, b) => titles(a) - titles(b) || a.range[0] - b.range[0])
      const more = asks.length > 1 ? ` (and ${asks.length - 1} more ask${asks.length > 2 ? 's' : ''} in this task)` : ''
      report({
        message: `${asks[0].message}${more}: make it an \`auto\` task and keep the checkpoint for what only a person can do (a login, a secret, a verification link)`,
        range: asks[0].range
      })
    }
  }
})
