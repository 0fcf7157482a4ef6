// The "Verdicts on the real corpus" section of docs/parity.md, rendered from
// the recorded outcome of scripts/peer-verdicts.mjs: written by the script,
// checked by test/parity.test.ts (which has no network and no peer to run).

export const sectionTitle = 'Verdicts on the real corpus'

/** The summary line: what ran, on how much, and how the verdicts compare. */
export function summaryLine(outcome) {
  const disagreeing = outcome.compared - outcome.agreeing
  return (
    `Peer run: \`verify plan-structure\` of ${outcome.peer} and planlint's \`${outcome.preset}\` preset on ${outcome.compared} plans ` +
    `of ${outcome.repositories} repositories: ${outcome.agreeing} agree, ${disagreeing} disagree.`
  )
}

const escapeCell = (text) => text.replace(/\|/g, '\\|')
const unescapeCell = (text) => text.replace(/\\\|/g, '|')

/** The key of a class row: what the peer said and what planlint said. */
export const classKey = (row) => `${row.peer} | ${row.planlint}`

/** The cells of each row of the table in the `## title` section of a Markdown text (the header row left out). */
export function tableRows(markdown, title) {
  const section = markdown.split(/^## /m).find((part) => part.startsWith(title))
  if (!section) return []
  return section
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|\s*-/.test(line))
    .slice(1)
    .map((line) => line.slice(1, line.trimEnd().length - 1).split(/(?<!\\)\|/).map((cell) => unescapeCell(cell.trim())))
}

/** The class rows of the section as written: peer, planlint, plans, why. */
export function classRows(markdown) {
  return tableRows(markdown, sectionTitle).map((cells) => ({peer: cells[0], planlint: cells[1], plans: Number(cells[2]), why: cells[3] ?? ''}))
}

/** The section for an outcome, keeping the explanation of each class already written. */
export function peerSection(outcome, written) {
  const why = new Map(written.map((row) => [classKey(row), row.why]))
  const lines = [
    `## ${sectionTitle}`,
    '',
    `Written by \`node scripts/peer-verdicts.mjs\` (recorded in \`test/fixtures/peer-verdicts.json\`); the explanations are kept when it runs again.`,
    '',
    summaryLine(outcome),
    '',
    '| GSD says | planlint says | Plans | Why |',
    '|---|---|---|---|',
    ...outcome.classes.map((row) => `| ${[row.peer, row.planlint, String(row.plans), why.get(classKey(row)) ?? ''].map(escapeCell).join(' | ')} |`)
  ]
  return lines.join('\n') + '\n'
}

/** The markdown with its section replaced (or appended). */
export function replaceSection(markdown, section) {
  const start = markdown.indexOf(`## ${sectionTitle}`)
  if (start === -1) return markdown.trimEnd() + '\n\n' + section
  const next = markdown.indexOf('\n## ', start + 3)
  return markdown.slice(0, start) + section + (next === -1 ? '' : markdown.slice(next + 1).replace(/^/, '\n'))
}
