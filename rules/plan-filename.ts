import path from 'node:path'
import {defineRule} from '../src/rule.js'

interface Options {
  /** Regular expressions (strings) a plan's file name must match one of. */
  patterns: string[]
}

const defaultPatterns = [
  // A phase plan: `01-02-PLAN.md`, decimal and lettered phases and plans (`10.1-02`, `89B-02`, `05-03a`), an optional slug.
  '^\\d+(?:\\.\\d+)*[A-Za-z]?-\\d+(?:\\.\\d+)*[A-Za-z]?(?:-[\\w.-]+)?-PLAN\\.md$',
  // A quick task's or a stand-alone plan: `028-PLAN.md`, `01-PLAN.md`, `07b-PLAN.md`.
  '^\\d+(?:\\.\\d+)*[A-Za-z]?-PLAN\\.md$',
  // A quick task by date id: `260507-tj9-PLAN.md`.
  '^\\d{6}-[a-z0-9]{3}-PLAN\\.md$',
  // The one plan of its folder; the workflow's tools look for `PLAN.md` too.
  '^PLAN\\.md$'
]

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
  check({document, options, report}) {
    if (!document.path) return
    const fileName = path.basename(document.path)
    if (options.patterns.some((pattern) => new RegExp(pattern).test(fileName))) return
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
