import path from 'node:path'
import {defineRule} from '../src/rule.js'

interface Options {
  /** Regular expressions (strings) a plan's file name must match one of. */
  patterns: string[]
}

const defaultPatterns = [
  // A phase plan: `01-02-PLAN.md`, decimal and lettered phases and plans (`10.1-02`, `89B-02`, `05-03a`), an optional slug.
  '^\\d+(?:\\.\\d+)*[A-Za-z]?-\\d+(?:\\.\\d+)*[A-Za-z]?(?:-[\\w.-]+)?-PLAN\\.md$',
  // A phase named by one letter (Phase A to D in the ROADMAP): `D-01-PLAN.md`.
  '^[A-Z]-\\d+(?:\\.\\d+)*[A-Za-z]?(?:-[\\w.-]+)?-PLAN\\.md$',
  // A quick task's or a stand-alone plan: `028-PLAN.md`, `01-PLAN.md`, `07b-PLAN.md`.
  '^\\d+(?:\\.\\d+)*[A-Za-z]?-PLAN\\.md$',
  // The plan GSD's legacy plan-fix command wrote for a UAT's issues: `14-FIX.md`, `14-02-FIX.md`.
  '^\\d+(?:\\.\\d+)*[A-Za-z]?(?:-\\d+(?:\\.\\d+)*[A-Za-z]?)?-FIX\\.md$',
  // A quick task by date id: `260507-tj9-PLAN.md`.
  '^\\d{6}-[a-z0-9]{3}-PLAN\\.md$',
  // The one plan of its folder; the workflow's tools look for `PLAN.md` too.
  '^PLAN\\.md$'
]

/** Plans of one tree named the same way, off the convention, from this many on: the tree's own scheme, reported once. */
const schemeAt = 3

/**
 * The shape of a file name, in the terms of its author: numbers become `NN`,
 * upper-case words `WORD`, lower-case words (a slug) `slug`; `PLAN` stays
 * (`PLAN-01-export.md` → `PLAN-NN-slug.md`, `13-05-FIX-PLAN-2.md` → `NN-NN-WORD-PLAN-NN.md`).
 */
function schemeOf(fileName: string): string {
  const parts = fileName.replace(/\.md$/, '').split('-').map((part) => {
    if (part === 'PLAN') return part
    if (/^\d+(?:\.\d+)*[A-Za-z]?$/.test(part)) return 'NN'
    if (/^[A-Z][A-Z0-9]*$/.test(part)) return 'WORD'
    return 'slug'
  })
  return parts.filter((part, index) => part !== 'slug' || parts[index - 1] !== 'slug').join('-') + '.md'
}

/** `NN-` of a phase folder (`03-billing` → `03`), for suggesting a name. */
function phaseNumberOf(folder: string): string | undefined {
  return /^(\d+(?:\.\d+)*[A-Za-z]?)-/.exec(folder)?.[1]
}

/**
 * Plans are found, ordered and paired with their summaries by file name: a
 * plan named off the convention sorts wrongly or is missed by tools that
 * expect `NN-MM-PLAN.md`.
 */
export default defineRule<Options>({
  id: 'plan-filename',
  description: 'A plan file is named `NN-MM-PLAN.md` (or another accepted pattern).',
  severity: 'warning',
  kinds: ['plan'],
  defaultOptions: {patterns: defaultPatterns},
  check({document, options, graph, report}) {
    // A file with neither frontmatter nor tasks may be a free-form note named like a plan (`ROLLOUT-PLAN.md`), not a plan.
    if (!document.path || (!document.frontmatter && document.tasks.length === 0)) return
    const patterns = options.patterns.map((pattern) => new RegExp(pattern))
    const fileName = path.basename(document.path)
    if (patterns.some((pattern) => pattern.test(fileName))) return
    // A tree that names its plans one way of its own hears it once, on its first such plan, not once per plan.
    const scheme = schemeOf(fileName)
    const plans = graph()
    const sameScheme = plans.nodes
      .filter((node) => !node.summaryOnly && schemeOf(path.basename(node.path)) === scheme && !patterns.some((pattern) => pattern.test(path.basename(node.path))))
      .map((node) => node.path)
      .sort()
    if (sameScheme.length >= schemeAt) {
      if (sameScheme[0] !== document.path) return
      const examples = [...new Set(sameScheme.map((file) => path.basename(file)))].slice(0, 2)
      report({
        message: `${sameScheme.length} plans of this tree are named \`${scheme}\` (\`${examples.join('`, `')}\`), not \`NN-MM-PLAN.md\` (phase, then plan number) as the workflow's tools expect: rename them, or accept the scheme with a pattern in this rule's \`patterns\` option`,
        range: [0, 0]
      })
      return
    }
    const phase = phaseNumberOf(path.basename(path.dirname(document.path)))
    // `PLAN-02.md` and `01-PLAN-02-api.md` carry the plan number after `PLAN-`.
    const plan = document.frontmatter?.data?.plan ?? /PLAN-(\d+[a-z]?)/i.exec(fileName)?.[1]
    const planNumber = /^\d+[a-z]?$/i.test(String(plan ?? '')) ? String(plan).padStart(2, '0') : undefined
    const suggestion = phase && planNumber ? `; rename it to \`${phase}-${planNumber}-PLAN.md\`` : ''
    report({
      message: `Plan file name \`${fileName}\` does not follow the \`NN-MM-PLAN.md\` convention (phase, then plan number)${suggestion}`,
      range: [0, 0]
    })
  }
})
