import path from 'node:path'
import {isScalar} from 'yaml'
import {onlyNearMiss} from '../src/distance.js'
import {opensFrontmatter, parseFrontmatter, withYamlComments, type Frontmatter, type FrontmatterEntry, type YamlProblem} from '../src/model/frontmatter.js'
import {checkOptionalKeys} from '../src/frontmatter-keys.js'
import {isQuickTask, sliceOf, type PlanDocument} from '../src/model/document.js'
import {lineRanges, type Range} from '../src/model/text.js'
import {codeList, fencedFrontmatter, lineOf} from '../src/plan.js'
import type {PlanGraph, PlanNode} from '../src/graph/graph.js'
import {byName} from '../src/graph/order.js'
import {defineRule} from '../src/rule.js'

interface Options {
  /** Keys every plan's frontmatter must have. */
  required: string[]
  /** Allowed values of `type:`; empty means any value. */
  types: string[]
  /**
   * Keys a plan must have when another plan of its phase has them: keys of a
   * later workflow generation, which plans written by an older one lack.
   */
  requiredWithPhase: string[]
  /**
   * Keys of `required` a plan need not have in a planning tree of three or
   * more plans none of which sets them: keys an earlier workflow template (or
   * a fork's) did not have, so such a tree was written with it.
   */
  requiredWithTree: string[]
  /** Report an empty `requirements` list (GSD's planner: "MUST NOT be empty"). */
  emptyRequirements: boolean
}

/** What a quick task (`/gsd:quick`) is not asked for: it runs alone, named by its `quick_id`, and has `must_haves` only with `--validate`. */
const quickTaskExempt = ['phase', 'plan', 'wave', 'depends_on', 'must_haves']

/** What to do about a YAML error, by the `yaml` library's code. */
const yamlAdvice: Record<string, string> = {
  DUPLICATE_KEY: 'remove or rename one of the two keys',
  BAD_DQ_ESCAPE: 'a backslash in double quotes starts an escape: use single quotes, or write `\\\\`',
  BAD_SCALAR_START: 'quote the value',
  MISSING_CHAR: 'quote list items that contain `[`, `]`, `{`, `}` or `,`',
  BLOCK_IN_FLOW: 'quote list items that contain `:` or `[`'
}

/**
 * A fix plan of an older GSD template: `/gsd:plan-fix` wrote `{plan}-FIX.md`
 * (`04-02-FIX.md`, later `{phase}-FIX.md`) with `phase`, `plan` and `type: fix`
 * only, and the executor ran it as written.
 */
const fixPlanName = /^\d+[a-z]?(?:\.\d+)*(?:-\d+[a-z]?)?(?:-FIX)+\.md$/i
const fixPlanKeys = ['phase', 'plan', 'type']

/** `text` as inline code, whatever backticks it holds. */
function inlineCode(text: string): string {
  return text.includes('`') ? `\`\` ${text} \`\`` : `\`${text}\``
}

/** The YAML library's message, its quoted source kept whole: an escape it refused (`\.`) is shown as code, not cut as a full stop. */
function yamlMessage(error: YamlProblem): string {
  const escape = /^Invalid escape sequence (.+)$/.exec(error.message)
  return escape ? `Invalid escape sequence ${inlineCode(escape[1])}` : error.message.replace(/\.$/, '')
}

/**
 * HTML comments that tools read from a plan's body, by their `<!--`: GSD's
 * allow markers (`verify plan-structure`) and remark-lint's directives. As a
 * `#` YAML comment such a marker would no longer be read.
 */
const bodyMarker = /^(planner-discipline-allow|planner-region-allow|plan-criteria-allow):|^(lint[ \t]+(?:disable|enable|ignore))\b/

/** The message and fix for an HTML comment in the frontmatter (`range`, from `<!--` to `-->`). */
function htmlCommentFinding(document: PlanDocument, range: Range) {
  const text = document.text
  const inner = text.slice(range[0] + 4, range[1] - 3)
  const marker = bodyMarker.exec(inner.trim())
  const lead = 'An HTML comment in YAML frontmatter is not a comment in YAML, which reads the line as a key or a value'
  if (marker) {
    const name = marker[1] ?? marker[2].replace(/[ \t]+/, ' ')
    return {message: `${lead}; this one is a \`${name}\` marker, read from the plan body: move it there, on a line of its own (as a \`#\` YAML comment it would no longer be read)`, range}
  }
  const lineEnd = text.indexOf('\n', range[1])
  const after = text.slice(range[1], lineEnd === -1 ? text.length : lineEnd)
  // Text after the comment on its line would become part of a `#` comment too: no fix then.
  if (after.trim() !== '') return {message: `${lead}; make it a YAML comment (\`#\`)`, range}
  const indent = text.slice(text.lastIndexOf('\n', range[0]) + 1, range[0])
  const lineBreak = text.slice(range[0], lineEnd === -1 ? text.length : lineEnd + 1).includes('\r\n') || after.endsWith('\r') ? '\r\n' : '\n'
  const lines = inner.split(/\r?\n|\r/).map((line) => line.trim()).filter((line) => line !== '')
  const replacement = lines.length === 0 ? '#' : lines.map((line) => `# ${line}`).join(lineBreak + indent)
  return {message: `${lead}; make it a YAML comment (\`#\`)`, range, fix: {range, text: replacement}}
}

/** Problems of valid YAML past planlint's limits (`src/model/frontmatter.ts`): their messages say it all. */
const planlintLimits = new Set(['TOO_LARGE', 'ALIAS_COUNT'])

/** YAML errors after which the parser reads on in place (a bad escape, a key written twice): no error after them follows from them. */
const readsOn = new Set(['BAD_DQ_ESCAPE', 'DUPLICATE_KEY', 'NESTED_TOO_DEEP', ...planlintLimits])

/** What is kept of a line whose value is set aside: its indentation, `- ` markers and plain key. */
const lineFrame = /^[ \t-]*(?:[\w.][\w.-]*:(?=[ \t]|$))?[ \t]*/

/**
 * How much YAML, in characters, is read again in all to tell an error from
 * the knock-ons of the one before it: half the largest frontmatter read (64
 * KiB), since the parser takes most of a second on one that size.
 */
const rereadBudget = 32 * 1024

/**
 * The YAML errors worth a message: the first on each line, and none that
 * follow from an earlier one. Once the parser has lost its place, it reads
 * the valid lines after it wrongly ("Unexpected token in YAML stream",
 * "Implicit map keys need to be followed by map values"), and those go away
 * when the first is fixed. So a later error is told only if it is still
 * there, where it was, once the value on the line of the error before it is
 * set aside (made a plain `_` of the same length). `text` is the document
 * text the frontmatter was read from.
 */
function rootErrors(document: PlanDocument, frontmatter: Frontmatter, text: string): YamlProblem[] {
  const lines = new Set<number>()
  let remaining = frontmatter.errors
    .filter((error, index) => {
      if (index > 0 && error.message.includes('in YAML stream')) return false
      const line = lineOf(document, error.range[0])
      if (lines.has(line)) return false
      lines.add(line)
      return true
    })
    .sort((a, b) => a.range[0] - b.range[0])
  const told: YamlProblem[] = []
  let masked = text
  const length = frontmatter.contentRange[1] - frontmatter.contentRange[0]
  let reread = 0
  while (remaining.length > 0) {
    const [error, ...rest] = remaining
    told.push(error)
    remaining = rest
    if (rest.length === 0 || readsOn.has(error.code)) continue
    const start = document.lines.lineStarts[lineOf(document, error.range[0]) - 1]
    const [, end] = lineRanges(masked, start).next().value ?? [start, start]
    const frame = lineFrame.exec(masked.slice(start, end))?.[0].length ?? 0
    if (start + frame === end) continue
    reread += length
    if (reread > rereadBudget) return [...told, ...rest]
    masked = masked.slice(0, start + frame) + '_'.padEnd(end - start - frame) + masked.slice(end)
    const still = new Set(parseFrontmatter(masked)?.errors.map((again) => `${again.code}@${again.range[0]}`))
    remaining = rest.filter((later) => still.has(`${later.code}@${later.range[0]}`))
  }
  return told
}

/** A plain scalar that reads the same as an item of a flow list. */
const flowSafe = /^[\w./][\w./ -]*$/

/** `[item]` for a scalar value, keeping its quotes; a plain `a, b` becomes `[a, b]`. */
function asFlowList(entry: FrontmatterEntry, written: string): string {
  const node = entry.node
  if (isScalar(node) && (node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE')) return `[${written}]`
  if (isScalar(node) && node.type === 'PLAIN') {
    const parts = written.split(',').map((part) => part.trim())
    if (parts.every((part) => flowSafe.test(part))) return `[${parts.join(', ')}]`
  }
  return `[${JSON.stringify(String(entry.value))}]`
}

/** A status line that says the work ran (`**Status:** ✅ Complete`, `Status: executed inline`), or "executed inline" in prose. */
const ranStatus = /^[>*_ \t-]{0,6}(?:status|estado)[*_ \t]{0,4}[:：][^\w\n]{0,8}(?:complete[d]?|executed|done|shipped|implemented|conclu[íi]do|completado|terminado)\b|\bexecuted inline\b/im

/** Whether a plan without frontmatter or `<task>` blocks is a record of work done (run inline, by hand), not a plan to schedule. */
const isRecordOfWorkDone = (document: PlanDocument) => document.tasks.length === 0 && ranStatus.test(document.text.slice(0, 3000))

/** The keys of a GSD plan's frontmatter (GSD 1.14's `templates/phase-prompt.md` and `agents/gsd-planner.md`): what a phase's own format is told apart by. */
const gsdPlanKeys = new Set([
  'phase', 'plan', 'type', 'wave', 'depends_on', 'files_modified', 'files_deleted', 'coupling_justified', 'autonomous',
  'requirements', 'user_setup', 'must_haves', 'estimate', 'agent_hint', 'gap_closure', 'gap_ids', 'status', 'quick_id'
])

/**
 * Whether a file named like a plan follows a schema of its own: its
 * frontmatter sets none of the keys of a GSD or Plan-Build-Run plan (`type`
 * and `status` are words any schema has) and its text has no `<task>`, so no
 * orchestrator schedules it and nothing reads the keys it would be asked for.
 */
function hasSchemaOfItsOwn(document: PlanDocument, keys: Iterable<string>): boolean {
  if (document.text.includes('<task')) return false
  for (const key of keys) if (key === 'implements' || (gsdPlanKeys.has(key) && key !== 'type' && key !== 'status')) return false
  return true
}

/** The most plans a phase-wide message names; the rest are counted. */
const maxNamed = 4

/**
 * Whether `node`'s phase was planned with a template of its own: other plans
 * of it (`siblings`) lack the keys `node` lacks (`missing`, of `required`),
 * all of them, or, where the phase switched templates part of the way, some
 * that also share keys GSD's plan has not or are three or more with `node`
 * (two plans that lack one key and share nothing else may be two slips). Then
 * those plans are told once, at the first still to run (else the first):
 * `first` says whether that is `node`, `total` counts the phase's plans when
 * not all of them share the template. `ownKeys` are the keys they all set
 * that a GSD plan has not, in `node`'s order.
 */
function formatOfPhase(plans: PlanGraph, node: PlanNode, siblings: PlanNode[], required: string[], missing: string[]) {
  const same = (other: PlanNode) => required.filter((key) => !other.keys.includes(key)).join('\0') === missing.join('\0')
  const sharing = siblings.filter(same)
  const ownKeys = node.keys.filter((key) => !gsdPlanKeys.has(key) && sharing.every((other) => other.keys.includes(key)))
  const whole = sharing.length === siblings.length
  if (sharing.length === 0 || (!whole && ownKeys.length === 0 && sharing.length < 2)) return undefined
  const rank = (plan: PlanNode) => (plans.executionState(plan) === 'pending' ? 0 : 1)
  const [first] = [node, ...sharing].sort((a, b) => rank(a) - rank(b) || byName(a, b))
  return {first: first === node, others: [...sharing].sort(byName), ownKeys, total: whole ? undefined : siblings.length + 1}
}

/**
 * The frontmatter is what the orchestrator reads to schedule a plan: it must
 * parse, have the keys the workflow reads, and give them the types it expects.
 */
export default defineRule<Options>({
  id: 'frontmatter-schema',
  description: 'A plan has valid YAML frontmatter with the required keys, of the right types.',
  severity: 'error',
  kinds: ['plan'],
  fixable: 'fix',
  defaultOptions: {
    required: ['phase', 'plan', 'type', 'wave', 'depends_on', 'files_modified', 'autonomous', 'must_haves'],
    types: [],
    requiredWithPhase: ['requirements'],
    requiredWithTree: ['wave', 'files_modified', 'autonomous', 'must_haves'],
    emptyRequirements: false
  },
  check({document, options, report, graph}) {
    const parsed = document.frontmatter
    if (!parsed) {
      const fenced = fencedFrontmatter(document)
      if (fenced) {
        report({
          message: `This plan's frontmatter is in a \`\` \`\`\`yaml \`\` fence (line ${lineOf(document, fenced[0])}), where no orchestrator reads it: frontmatter is a \`---\` block at the very start of the file; move it there, with \`---\` lines instead of the fence`,
          range: [fenced[0], document.text.indexOf('\n', fenced[0])]
        })
        return
      }
      const opened = opensFrontmatter(document.text)
      // Nothing will schedule a record of work that has run: asking it for `wave` and `depends_on` asks for nothing anyone reads.
      if (!opened && isRecordOfWorkDone(document)) return
      report({
        message: opened
          ? 'The frontmatter opened on line 1 is never closed; end it with a `---` line'
          : `This plan has no YAML frontmatter; start it with a \`---\` block that sets ${codeList(options.required)}`,
        range: opened ? [0, 3] : [0, 0]
      })
      return
    }
    // One cause, one message: each HTML comment is told at its line, and the rest is read as if it were a YAML comment.
    const comments = document.frontmatterComments
    for (const comment of comments) report(htmlCommentFinding(document, comment))
    const frontmatter: Frontmatter = (comments.length > 0 ? parseFrontmatter(withYamlComments(document.text, comments)) : undefined) ?? parsed
    const errors = rootErrors(document, frontmatter, withYamlComments(document.text, comments))
    for (const error of errors) {
      if (planlintLimits.has(error.code)) {
        report({message: error.message, range: error.range})
        continue
      }
      const advice = yamlAdvice[error.code] ?? 'quote the value, or fix the YAML, so that every YAML reader gets the values you meant'
      report({message: `Frontmatter is not valid YAML: ${yamlMessage(error)}; ${advice}`, range: error.range})
    }
    const opening: [number, number] = [0, 3]
    if (!frontmatter.data) {
      if (frontmatter.errors.length > 0) return
      if (frontmatter.document.contents !== null) {
        report({message: 'The frontmatter is not a mapping of keys to values; write `key: value` lines', range: frontmatter.contentRange})
        return
      }
    }
    const entries = frontmatter.entries
    const quick = isQuickTask(document)
    const fixPlan = document.path !== undefined && fixPlanName.test(path.basename(document.path))
    const node = graph().planAt(document.path)
    const siblings = node ? graph().inDirectory(node.directory).filter((other) => other !== node && !other.summaryOnly) : []
    const generation = quick || fixPlan ? [] : options.requiredWithPhase.filter((key) => siblings.some((other) => other.keys.includes(key)))
    const ofTreeGeneration = (key: string) => !options.requiredWithTree.includes(key) || !graph().templateLacksKey(key)
    const asked = (key: string) => !(quick && quickTaskExempt.includes(key)) && !(fixPlan && !fixPlanKeys.includes(key)) && ofTreeGeneration(key)
    const required = [...options.required.filter(asked), ...generation]
    const ownSchema = frontmatter.errors.length === 0 && hasSchemaOfItsOwn(document, entries.keys())
    const missing = ownSchema ? [] : required.filter((key) => !entries.has(key))
    const lacking = `Frontmatter lacks the required key${missing.length === 1 ? '' : 's'} ${codeList(missing)}`
    const them = missing.length === 1 ? 'it' : 'them'
    const phaseFormat = node && missing.length > 0 ? formatOfPhase(graph(), node, siblings, required, missing) : undefined
    if (phaseFormat === undefined) {
      if (missing.length > 0) report({message: `${lacking}; add ${them}`, range: opening})
    } else if (phaseFormat.first) {
      const {others, ownKeys, total} = phaseFormat
      const names = others.slice(0, maxNamed).map((other) => `\`${other.name}\``).join(', ') + (others.length > maxNamed ? ` and ${others.length - maxNamed} more` : '')
      const template = ownKeys.length > 0 ? `a template of their own (with ${codeList(ownKeys)})` : `a template without ${them}`
      if (total === undefined) {
        const also = others.length === 1 ? `as does the other plan of this phase (${names})` : `as do the other ${others.length} plans of this phase (${names})`
        report({message: `${lacking}, ${also}: its plans follow ${template}; add ${them} to each plan`, range: opening})
      } else {
        const also = others.length === 1 ? `as does one more of this phase's ${total} plans (${names})` : `as do ${others.length} more of this phase's ${total} plans (${names})`
        report({message: `${lacking}, ${also}: these ${others.length + 1} plans follow ${template}; add ${them} to each of these plans`, range: opening})
      }
    }
    const written = (entry: FrontmatterEntry) => sliceOf(document, entry.valueRange)

    const wave = entries.get('wave')
    if (wave && !(typeof wave.value === 'number' && Number.isInteger(wave.value) && wave.value >= 0)) {
      if (typeof wave.value === 'string' && /^\d+$/.test(wave.value.trim())) {
        const integer = String(Number(wave.value))
        report({message: `\`wave\` is the string \`${written(wave)}\`; write the integer \`${integer}\``, range: wave.valueRange, fix: {range: wave.valueRange, text: integer}})
      } else {
        report({message: `\`wave\` is \`${written(wave) || 'empty'}\`; it must be an integer ≥ 0: waves run in order, the plans of a wave in parallel`, range: wave.valueRange})
      }
    }

    for (const key of ['depends_on', 'files_modified']) {
      const entry = entries.get(key)
      if (!entry || Array.isArray(entry.value)) continue
      if (entry.value === null) {
        report({message: `\`${key}\` is empty; write \`${key}: []\``, range: entry.valueRange, severity: 'warning', fix: {range: entry.valueRange, text: '[]'}})
      } else if (typeof entry.value === 'string' || typeof entry.value === 'number') {
        const list = asFlowList(entry, written(entry))
        report({
          message: `\`${key}\` is a single value, not a list; write \`${key}: ${list}\``,
          range: entry.valueRange,
          severity: 'warning',
          fix: {range: entry.valueRange, text: list}
        })
      } else {
        report({message: `\`${key}\` must be a list (\`${key}: [...]\`)`, range: entry.valueRange})
      }
    }

    const requirements = entries.get('requirements')
    const emptyList = (value: unknown) => value === null || value === '' || (Array.isArray(value) && value.length === 0)
    if (options.emptyRequirements && requirements && emptyList(requirements.value) && entries.get('gap_closure')?.value !== true && !quick) {
      report({
        message: '`requirements` is empty: list the ROADMAP requirement ids this plan\'s tasks address (GSD: "Plans with an empty `requirements` field are invalid")',
        range: requirements.valueRange[0] === requirements.valueRange[1] ? requirements.keyRange : requirements.valueRange,
        severity: 'warning'
      })
    }

    checkOptionalKeys(document, report)

    const type = entries.get('type')
    if (type && !quick && options.types.length > 0 && !options.types.includes(String(type.value)) && !(fixPlan && type.value === 'fix')) {
      const value = String(type.value)
      const meant = onlyNearMiss(value, options.types)
      report({
        message: `Plan \`type\` \`${written(type) || 'empty'}\` is not one of ${codeList(options.types)}` + (meant ? `; did you mean \`${meant}\`?` : ''),
        range: type.valueRange,
        severity: 'warning',
        ...(meant ? {fix: {range: type.valueRange, text: meant}} : {})
      })
    }
  }
})
