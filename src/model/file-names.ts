// What a file is by its name alone: a module of its own, so that scanning a planning tree's names and stamps loads no parser.

/**
 * Whether a file name is a plan's: `*-PLAN.md`, `PLAN-NN.md` or `PLAN.md`, and
 * the old `NN-PLAN-MM-slug.md` (a plan the executor no longer finds, which
 * `plan-filename` reports).
 */
export function isPlanFileName(fileName: string): boolean {
  return /(^|-)PLAN\.md$/.test(fileName) || /(^|-)PLAN-\d+[a-z]?(-[\w.-]+)?\.md$/.test(fileName)
}

/**
 * Files named like plans that are not plans: GSD's chunked-planning outline
 * (`01-PLAN-OUTLINE.md`), the backup a plan bounce keeps (`01-02-PLAN.pre-bounce.md`,
 * a copy of a plan with its frontmatter and tasks) and a plan review
 * (`01-02-PLAN-REVIEW.md`). No executor runs them.
 */
export function isNotPlanFileName(fileName: string): boolean {
  return /-OUTLINE\.md$/i.test(fileName) || /\.pre-bounce\.md$/i.test(fileName) || /-PLAN-REVIEW\.md$/i.test(fileName)
}

/** Whether a file name is a summary's: `*-SUMMARY.md` or `SUMMARY.md`. */
export function isSummaryFileName(fileName: string): boolean {
  return /(^|-)SUMMARY\.md$/.test(fileName)
}
