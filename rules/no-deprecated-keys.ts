import {defineRule} from '../src/rule.js'

interface Options {
  /** Deprecated frontmatter key → the key that replaces it. */
  keys: Record<string, string>
}

const deprecatedKeys: Record<string, string> = {requirement_ids: 'implements'}

/**
 * Frontmatter keys the workflow renamed: tools that read the new name do not
 * see the old one, so the plan silently loses what the key said.
 */
export default defineRule<Options>({
  id: 'no-deprecated-keys',
  description: 'Frontmatter uses no deprecated keys (`requirement_ids` is now `implements`).',
  severity: 'warning',
  kinds: ['plan'],
  fixable: 'fix',
  defaultOptions: {keys: deprecatedKeys},
  check({document, options, report}) {
    const entries = document.frontmatter?.entries
    if (!entries) return
    // User keys add to the built-in ones.
    const keys = {...deprecatedKeys, ...options.keys}
    for (const [key, replacement] of Object.entries(keys)) {
      const entry = entries.get(key)
      if (!entry) continue
      if (entries.has(replacement)) {
        report({
          message: `\`${key}\` is deprecated and \`${replacement}\` is already set; move its items into \`${replacement}\` and remove it`,
          range: entry.keyRange
        })
      } else {
        report({
          message: `\`${key}\` is deprecated; rename it to \`${replacement}\``,
          range: entry.keyRange,
          fix: {range: entry.keyRange, text: replacement}
        })
      }
    }
  }
})
