// What each message of the peer validators (GSD's `verify plan-structure`,
// `frontmatter validate`, `phase-plan-index`; Plan-Build-Run's `validatePlan`
// and `verify plan-structure`) means in planlint: the rule that reports the
// same thing (`mention`, when the pattern captures one, must appear in that
// rule's message), `missing-file` for the peer's "file not found" (planlint's
// usage error), or `undefined` when no planlint rule means the same.
// Shared by test/parity.test.ts (the recorded peer cases) and
// scripts/peer-verdicts.mjs (the peer run on the real corpus).

export const peerErrors = [
  // GSD verify plan-structure, frontmatter validate, phase-plan-index
  {pattern: /^Missing required frontmatter field: (?<mention>\w+)$/, rule: 'frontmatter-schema'},
  {pattern: /^Task missing <(?<mention>name)> element$/, rule: 'task-elements'},
  {pattern: /^Task '.*' missing <(?<mention>[\w-]+)>$/, rule: 'task-elements'},
  {pattern: /^Has checkpoint tasks but autonomous is not false$/, rule: 'autonomous-flag'},
  {pattern: /^Plan body contains forbidden literal "(?<mention>.+?)" in an <action> block/, rule: 'negative-grep-echo'},
  {pattern: /^\[plan-criteria (?<mention>R[1-6])\]/, rule: 'criteria-traps'},
  {pattern: /file contains (?<mention>NUL) bytes/, rule: 'task-markup'},
  {pattern: /depends_on cycle detected/, rule: 'no-dependency-cycle'},
  {pattern: /depends_on index collision/, rule: 'unique-plan-ids'},
  {pattern: /^File not found$/, rule: 'missing-file'},
  {pattern: /^Phase not found$/, rule: undefined},
  // Plan-Build-Run validatePlan and verify plan-structure
  {pattern: /^(Missing|Unclosed) YAML frontmatter$/, rule: 'frontmatter-schema'},
  {pattern: /^Frontmatter missing (required )?"(?<mention>\w+)" field/, rule: 'frontmatter-schema'},
  {pattern: /^Task \d+: (feature task )?missing <(?<mention>[\w-]+)> element$/, rule: 'task-elements'},
  {pattern: /^Too many tasks: \d+ \(max \d+ per plan\)$/, rule: 'max-tasks'},
  {pattern: /^No <task> elements found$/, rule: 'max-tasks'}
]

export const peerWarnings = [
  {pattern: /^Task '.*' missing <(?<mention>[\w-]+)>$/, rule: 'task-elements'},
  {pattern: /^No <task> elements found$/, rule: 'max-tasks'},
  {pattern: /^Wave > 1 but depends_on is empty$/, rule: 'wave-order'},
  {pattern: /declared wave: \d+ but depends_on DAG places it in wave \d+$/, rule: 'wave-order'},
  {pattern: /^Region-scope conflict \(#968\): task ".*" negative-greps "(?<mention>.+?)" file-wide/, rule: 'negative-gate-conflict'},
  {pattern: /^Possible comment-text echo \(#429\): negative-grep target "(?<mention>.+?)"/, rule: 'negative-grep-echo'},
  {pattern: /^Task rated <reversibility rating="one-way"> has no preceding checkpoint:decision/, rule: 'one-way-decision'},
  {pattern: /^\[plan-criteria (?<mention>R[1-6])\]/, rule: 'criteria-traps'},
  {pattern: /don't match the canonical naming convention/, rule: 'plan-filename'},
  {pattern: /^must_haves missing "(?<mention>\w+)" sub-field$/, rule: 'must-haves'},
  {pattern: /^Vague criterion detected/, rule: 'must-haves'},
  {pattern: /^Unexpected type value: "(?<mention>.*?)"/, rule: 'frontmatter-schema'},
  {pattern: /^Task \d+: read_first should use specific paths, not globs: "(?<mention>.*)"$/, rule: 'read-first-paths'},
  {pattern: /^Path traversal risk in <files>: "(?<mention>.*?)"/, rule: 'safe-file-paths'},
  {pattern: /^Partial XML wrappers: /, rule: undefined}
]

/** The meaning of a peer message in `table`, or `undefined` when the table has no entry for it. */
export function meaningOf(table, text) {
  for (const meaning of table) {
    const match = meaning.pattern.exec(text)
    if (match) return {rule: meaning.rule, mention: match.groups?.mention}
  }
  return undefined
}
