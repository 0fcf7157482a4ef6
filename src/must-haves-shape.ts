import {isMap, isScalar, isSeq, type Scalar, type YAMLMap, type Node as YamlNode} from 'yaml'
import type {PlanDocument} from './model/document.js'
import type {Range} from './model/text.js'
import type {Finding} from './rule.js'

/** A key that is a file path (`src/lib/auth.ts`, `src/lib/auth.ts (provides`), not a field name. */
const pathLike = /^[\w.@~-]{0,100}[/.]\S/

/** The path of an artifact written `- src/auth.ts: JWT helpers`: a mapping to YAML, GSD's plain-string form to its author. */
function plainPathKey(item: YAMLMap): Scalar | undefined {
  const [only] = item.items
  return item.items.length === 1 && isScalar(only.key) && pathLike.test(String(only.key.value)) ? only.key : undefined
}

/** Keys an author gives an artifact's fields by: a mapping of one of them lacks its `path`, it is no sentence. */
const fieldKey = /^(?:path|file|files|provides|min_lines|max_lines|exports|contains|description|purpose|name|type|kind|status|notes?|summary)$/i

/** An artifact nothing is wired to: a document, a folder, a `.gitkeep`, a test (it calls code, nothing calls it). */
const unwiredPath = /\.(?:md|mdx|markdown|txt|rst|adoc|log|csv|pdf)$|\/$|(?:^|\/)\.gitkeep$|(?:^|\/)(?:tests?|__tests__|specs?|e2e)\/|(?:^|\/)test_[^/]*$|[._-](?:test|spec)\.[\w]{1,6}$/i

/** An artifact that says it is not connected yet ("standalone, no integration yet", "not wired yet"). */
const saysUnwired = /\bno (?:integration|wiring)\b|\bnot (?:yet )?(?:wired|integrated|connected)\b|\bstandalone\b/i

/**
 * Whether no artifact of `must_haves` has anything to wire, so that a missing
 * `key_links` and `key_links: []` mean the same: `artifacts` is empty, or each
 * artifact is a document, a folder, a test or says it is not integrated yet.
 */
export function nothingToWire(mustHaves: YAMLMap): boolean {
  const artifacts = mustHaves.get('artifacts', true)
  if (artifacts === undefined) return false
  if (isScalar(artifacts) && (artifacts.value === null || artifacts.value === '')) return true
  if (!isSeq(artifacts)) return false
  return artifacts.items.every((item) => {
    if (isScalar(item) && typeof item.value === 'string') return saysUnwired.test(item.value) || unwiredPath.test(item.value.trim().split(/\s/)[0])
    if (!isMap(item)) return false
    const path = plainPathKey(item) ?? item.get('path', true)
    if (!isScalar(path) || typeof path.value !== 'string') return false
    const said = item.items.map((pair) => (isScalar(pair.value) && typeof pair.value.value === 'string' ? pair.value.value : '')).join('\n')
    return saysUnwired.test(said) || unwiredPath.test(path.value.trim().split(/\s/)[0])
  })
}

/**
 * The shape of `must_haves.artifacts` and `must_haves.key_links` as GSD's
 * verifier reads them (`templates/phase-prompt.md`): an artifact is a path,
 * or a mapping with `path` and the optional `provides`, `min_lines` (a whole
 * number, 0 for "exists"), `exports` (names) and `contains` (a pattern); a key link is a
 * mapping with `from` and `to`. `must-haves` runs it.
 */
export function checkMustHavesShape(document: PlanDocument, mustHaves: YAMLMap, report: (finding: Finding) => void): void {
  const start = document.frontmatter!.contentRange[0]
  const rangeOf = (node: unknown): Range | undefined => {
    const range = (node as YamlNode | null)?.range
    return range ? [start + range[0], start + document.text.slice(start + range[0], start + range[1]).trimEnd().length + range[0]] : undefined
  }
  const artifacts = mustHaves.get('artifacts', true)
  for (const item of isSeq(artifacts) ? artifacts.items : []) {
    if (!isMap(item)) continue
    const range = rangeOf(item)
    if (!range) continue
    if (plainPathKey(item)) continue
    const [only] = item.items
    // `- i18n: strings are translated`: one text to its author, that a colon and a space made a mapping.
    if (item.items.length === 1 && isScalar(only.key) && !fieldKey.test(String(only.key.value)) && isScalar(only.value) && typeof only.value.value === 'string' && only.value.value.trim() !== '') {
      const written = document.text.slice(range[0], range[1]).replace(/\s+/g, ' ')
      const text = written.length > 80 ? `${written.slice(0, 79)}…` : written
      report({
        message: `The colon in "${text}" makes this artifact a YAML mapping (key \`${String(only.key.value)}\`), not one text: quote the whole item, and if it states a behaviour rather than a file, move it to \`truths\``,
        range
      })
      continue
    }
    if (!item.has('path')) {
      report({message: 'This artifact has no `path`: the verifier checks that the file at `path` exists and is substantive', range})
      continue
    }
    const minLines = item.get('min_lines', true)
    // The verifier counts lines only above 0 (`min_lines: 0`: the file need only exist), and reads a quoted count as the number.
    if (minLines !== undefined && !(isScalar(minLines) && /^\d{1,9}$/.test(String(minLines.value).trim()))) {
      report({message: '`min_lines` is a whole number of lines (the fewest the file needs to count as substantive)', range: rangeOf(minLines) ?? range})
    }
    const exports = item.get('exports', true)
    if (exports !== undefined && !(isSeq(exports) || (isScalar(exports) && typeof exports.value === 'string'))) {
      report({message: '`exports` lists the names the file must export (`exports: ["GET", "POST"]`)', range: rangeOf(exports) ?? range})
    }
    const contains = item.get('contains', true)
    // GSD 1.14's `verify artifacts` reads any list as an array and checks `fileContent.includes(contains)`, which joins it
    // by commas: a list of one item is read as that item (none, as no pattern), several make a text the file will not hold.
    const pattern = isSeq(contains) && contains.items.length <= 1 ? contains.items[0] : contains
    if (isSeq(pattern)) {
      const joined = pattern.items.slice(0, 2).map((part) => String(isScalar(part) ? part.value : part)).join(',') + (pattern.items.length > 2 ? ',…' : '')
      report({
        message: `\`contains\` is one text: GSD's verifier looks for a list's items joined by commas (\`${joined}\`), which the file will not hold, and calls the artifact a stub; keep one text here (one artifact entry per pattern)`,
        range: rangeOf(pattern) ?? range
      })
    } else if (pattern !== undefined && !(isScalar(pattern) && typeof pattern.value === 'string')) {
      report({message: '`contains` is the text the file must contain (`contains: "model Message"`)', range: rangeOf(pattern) ?? range})
    }
  }
  const keyLinks = mustHaves.get('key_links', true)
  for (const item of isSeq(keyLinks) ? keyLinks.items : []) {
    if (!isMap(item)) continue
    const missing = ['from', 'to'].filter((key) => !item.has(key))
    const range = rangeOf(item)
    if (missing.length === 0 || !range) continue
    report({message: `This key link has no \`${missing.join('` or `')}\`: a link connects a \`from\` artifact to a \`to\`, and says \`via\` what`, range})
  }
}
