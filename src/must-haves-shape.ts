import {isMap, isScalar, isSeq, type YAMLMap, type Node as YamlNode} from 'yaml'
import type {PlanDocument} from './model/document.js'
import type {Range} from './model/text.js'
import type {Finding} from './rule.js'

/** A key that is a file path (`src/lib/auth.ts`, `src/lib/auth.ts (provides`), not a field name. */
const pathLike = /^[\w.@~-]{0,100}[/.]\S/

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
    // `- src/auth.ts: JWT helpers` is a path and what it provides: a mapping to YAML, GSD's plain-string form to its author.
    if (item.items.length === 1 && isScalar(item.items[0].key) && pathLike.test(String(item.items[0].key.value))) continue
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
    if (isSeq(contains)) {
      // `verify artifacts` checks `fileContent.includes(contains)`: its own YAML reader makes a block list an array (joined by commas) and skips a flow list.
      const joined = contains.items.slice(0, 2).map((pattern) => String(isScalar(pattern) ? pattern.value : pattern)).join(',') + (contains.items.length > 2 ? ',…' : '')
      report({
        message: contains.flow
          ? '`contains` is one text: GSD\'s verifier does not read a `[…]` list, so nothing is checked; keep one text here (one artifact entry per pattern)'
          : `\`contains\` is one text: GSD's verifier looks for a list's items joined by commas (\`${joined}\`), which the file will not hold, and calls the artifact a stub; keep one text here (one artifact entry per pattern)`,
        range: rangeOf(contains) ?? range
      })
    } else if (contains !== undefined && !(isScalar(contains) && typeof contains.value === 'string')) {
      report({message: '`contains` is the text the file must contain (`contains: "model Message"`)', range: rangeOf(contains) ?? range})
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
