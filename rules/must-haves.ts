import {isMap} from 'yaml'
import {frontmatterItems, yamlErrorIn} from '../src/model/frontmatter.js'
import {checkMustHavesShape, nothingToWire} from '../src/must-haves-shape.js'
import {defineRule} from '../src/rule.js'

interface Options {
  /** The sub-keys `must_haves` must have (empty lists are fine). */
  required: string[]
  /** Report vague truths (Plan-Build-Run's list). */
  vagueTruths: boolean
  /** Ask for `key_links` also when no artifact has anything to wire (Plan-Build-Run's check asks every plan). */
  keyLinksAlways: boolean
}

/** "Stays responsive", "responsive while loading": it does not freeze, which is a behaviour, not a speed claim. */
const doesNotFreeze = /\b(stays?|remains?|keeps?|kept|still|feels?) responsive\b|\bresponsive (while|during|under|when|to (user )?input)\b/i

/**
 * What answers requests. "Responsive" said of anything else (a page, a layout, a UI) is responsive web
 * design, a layout a verifier checks at a phone's and a desktop's width; said of these, it is a speed.
 */
const answersRequests = /\b(?:apis?|endpoints?|servers?|backends?|services?|databases?|db|quer(?:y|ies)|requests?|webhooks?)\b/i

/**
 * Quoted words name something (a fixture, a preset, a button): not the author's judgment. A single quote opens
 * and closes only away from letters, so an apostrophe ("isn't") is no quote.
 */
const quoted = /\B'[^'\n]+'\B|"[^"\n]+"|`[^`\n]+`|‘[^‘’\n]+’|“[^“”\n]+”/g

/**
 * A measurable outcome the verifier can compare output with: a count of issues, errors or tests, an exit code,
 * a bound on a number. A bare number ("v2", "UTF-8") says which thing, not what to expect of it.
 */
const measurableOutcome =
  /(?<![\w.-])(?:zero|no|\d+) (?:\w+ )?(?:issues?|errors?|warnings?|failures?|problems?|violations?|findings?|tests?|cases?|checks?)\b|\bexit(?:s|ed)?(?: with)?(?: code| status)? \d+\b|\bexit (?:code|status) (?:is |of )?\d+\b|(?:[<>≤≥]|\b(?:at least|at most|within|under|below|above|over|fewer than|more than|less than)) ?\d/i

/**
 * Plan-Build-Run's vague phrases, each with what would make it checkable (a pattern that, when present,
 * excuses it) and, for a word vague only in some sense, what the truth names when it has that sense (`about`).
 */
const vaguePhrases: Array<{phrase: RegExp; why: string; excusedBy?: RegExp; about?: RegExp}> = [
  {phrase: /\bshould be good\b/i, why: 'subjective quality'},
  {phrase: /\bwell[- ]tested\b/i, why: 'subjective quality'},
  {phrase: /\bproperly handles?\b|\bhandles? \w+ properly\b/i, why: 'undefined "properly"'},
  {phrase: /\bclean code\b/i, why: 'aesthetic judgment'},
  {phrase: /(?<![\w./-])responsive(?![\w./-])/i, why: 'no response time', excusedBy: /\d/, about: answersRequests},
  {phrase: /(?<![\w./-])performant(?![\w./-])/i, why: 'no performance number', excusedBy: /\d/},
  {phrase: /(?<![\w./-])robust(?![\w./-])/i, why: 'no resilience mechanism', excusedBy: /\b(retr(y|ies)|timeouts?|backoff|fallback|circuit|idempotent|validat\w*|rollback|transaction\w*|reconnect\w*)\b/i},
  // The claim "X is secure", not the cookie attribute `Secure` or "securely stored".
  {phrase: /\b(?:is|are|be|stays?|remains?|kept|fully) secure(?![\w./-])/i, why: 'no security mechanism', excusedBy: /\b(via|using|through|by|with)\b|\b(tls|https|cors|csp|hash\w*|bcrypt|argon\w*|encrypt\w*|jwt|rls|sanitiz\w*|escap\w*|signed|hmac|csrf|rate[- ]limit\w*|permissions?)\b/i}
]

/**
 * `must_haves` is the contract the verifier checks after execution: what must
 * be TRUE, which artifacts must exist and how they connect. A missing part
 * goes unchecked, and a vague truth ("should be good") cannot be checked.
 */
export default defineRule<Options>({
  id: 'must-haves',
  description: '`must_haves` has `truths`, `artifacts` and `key_links`, and its truths can be checked.',
  severity: 'warning',
  kinds: ['plan'],
  defaultOptions: {required: ['truths', 'artifacts', 'key_links'], vagueTruths: true, keyLinksAlways: false},
  check({document, options, report}) {
    const frontmatter = document.frontmatter
    const entry = frontmatter?.entries.get('must_haves')
    if (!frontmatter || !entry || entry.value === null) return
    // The YAML reader drops what follows an error, so a part it lost would look missing: frontmatter-schema reports the cause.
    if (yamlErrorIn(frontmatter, 'must_haves')) return
    if (!isMap(entry.node)) {
      report({
        message: `\`must_haves\` is not a mapping: write it as \`${options.required.join('`, `')}\` lists`,
        range: entry.keyRange
      })
      return
    }
    const map = entry.node
    // GSD reads a missing `key_links` as `key_links: []`: only where an artifact is something to connect is it a skipped step.
    const unwired = !options.keyLinksAlways && nothingToWire(map)
    const missing = options.required.filter((key) => !map.has(key) && !(key === 'key_links' && unwired))
    if (missing.length > 0) {
      report({
        message: `\`must_haves\` has no \`${missing.join('`, `')}\`: the verifier checks what is listed there (write \`${missing[0]}: []\` when there is nothing)`,
        range: entry.keyRange
      })
    }
    checkMustHavesShape(document, map, report)
    if (!options.vagueTruths) return
    const truths = map.get('truths', true)
    if (!truths) return
    const items = frontmatterItems(frontmatter, truths)
    items.forEach((truth, index) => {
      if (typeof truth.value !== 'string') return
      const text = truth.value
      // A measurable outcome makes the truth checkable whatever vague word says why it matters.
      if (measurableOutcome.test(text)) return
      const unquoted = text.replace(quoted, (name) => ' '.repeat(name.length))
      // The specifics may sit in the truth next to it ("renders a responsive grid", then the breakpoints).
      const neighbours = [items[index - 1], items[index + 1]].map((item) => (typeof item?.value === 'string' ? item.value : '')).join('\n')
      const vague = vaguePhrases.find(
        (candidate) =>
          candidate.phrase.test(unquoted) &&
          (candidate.about?.test(text) ?? true) &&
          !candidate.excusedBy?.test(text) &&
          !candidate.excusedBy?.test(neighbours) &&
          !(candidate.about === answersRequests && doesNotFreeze.test(text))
      )
      if (!vague) return
      const phrase = vague.phrase.exec(unquoted)![0]
      report({
        message: `Truth "${text}" is vague (${vague.why}: "${phrase}"): state a threshold or an observable behaviour the verifier can check`,
        range: truth.range
      })
    })
  }
})
