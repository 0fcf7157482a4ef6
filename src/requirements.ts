import fs from 'node:fs'
import path from 'node:path'
import type {PlanGraph} from './graph/graph.js'
import {normalizeNumber} from './graph/ids.js'
import {trimChars} from './plan.js'

/**
 * A requirement id as GSD writes them (`AUTH-01`, `SB-UX-08`, `HUNT-05-ADV`):
 * capitals and digits in two or more parts joined by `-`, `_` or `.`.
 */
const wholeId = /^[A-Z][A-Z0-9]*(?:[-_.][A-Z0-9]+)+$/

/** Whether a `requirements:` item is one requirement id and nothing else. */
export function isRequirementId(text: string): boolean {
  return wholeId.test(text.toUpperCase())
}

/** A phase heading of ROADMAP.md (`### Phase 3: Billing`, `#### ~~Phase 14.1: …~~`), with its level and number. */
const phaseHeading = /^(#{2,6})[ \t]+(?:[^\w\s]{1,8}[ \t]*)?Phase[ \t]+(\d+(?:\.\d+)*[a-z]?)\b/i
/** The line that assigns requirements to the phase: `**Requirements**: A-01, A-02` or `**Requirements:** [A-01]`. */
const requirementsLine = /^\*\*Requirements(?:\*\*:|:\*\*)(.*)$/

/** A line that takes requirements out of a phase: deferred, postponed, moved to another phase, descoped. */
const deferral = /\b(?:defer|postpone|moved to|descope|out of scope|later milestone|next milestone)/i

/**
 * The requirement ids ROADMAP.md assigns to each phase, less those a line of
 * its section defers (`AUTH-03 is deferred to Phase 9`, moved to a later
 * milestone), by normalised phase
 * number, read only where the document is unambiguous: a phase heading
 * followed, inside its section, by a `**Requirements**:` line that is
 * nothing but ids (a range such as `A-01..04`, a note, `TBD` make the phase
 * unreadable, and it is left out). A phase that two headings describe (two
 * milestones numbering from 1) is left out too.
 */
export function roadmapRequirements(text: string): Map<string, string[]> {
  const found = new Map<string, string[] | null>()
  const deferred = new Map<string, Set<string>>()
  let phase: string | undefined
  let level = 0
  let seen = false
  for (const line of text.split('\n')) {
    const heading = phaseHeading.exec(line)
    if (heading) {
      phase = normalizeNumber(heading[2])
      level = heading[1].length
      seen = false
      continue
    }
    const other = /^(#{1,6})\s/.exec(line)
    if (other && other[1].length <= level) phase = undefined
    if (phase !== undefined && deferral.test(line)) {
      const ids = deferred.get(phase) ?? new Set<string>()
      for (const id of idsIn(line)) ids.add(id)
      deferred.set(phase, ids)
    }
    const assigned = phase !== undefined && !seen ? requirementsLine.exec(line.trimEnd()) : null
    if (!assigned || phase === undefined) continue
    seen = true
    const tokens = assigned[1].trim().replace(/^\[|\]$/g, '').split(/[,\s]+/).map((token) => token.replace(/^`|`$/g, '')).filter((token) => token !== '')
    const readable = tokens.length > 0 && tokens.every((token) => wholeId.test(token))
    found.set(phase, found.has(phase) || !readable ? null : tokens)
  }
  return new Map(
    [...found]
      .filter((entry): entry is [string, string[]] => entry[1] !== null)
      .map(([number, ids]) => [number, ids.filter((id) => !deferred.get(number)?.has(id.toUpperCase()))])
  )
}

/** The family of a requirement id: all but its last part (`AUTH` of `AUTH-07`, `SB-UX` of `SB-UX-01`). */
export function idFamily(id: string): string {
  return id.toUpperCase().replace(/[-_.][A-Z0-9]+$/, '')
}

/** A word's text without the separators around it (`AUTH-01.` at the end of a sentence is `AUTH-01`). */
function trimSeparators(word: string): string {
  return trimChars(word, '-_.')
}

/** The words of a text that could be ids, upper-cased (split at anything an id cannot hold; `…` read as `..`). */
const wordsOf = (text: string) => text.replaceAll('…', '..').split(/[^\w.-]+/).map((word) => trimSeparators(word).toUpperCase())

/** Every id-shaped word of a text, upper-cased (ids compare case-insensitively). */
export function idsIn(text: string): Set<string> {
  return new Set(wordsOf(text).filter((word) => wholeId.test(word)))
}

/** The families a text names by a range (`E2E-TOOLING..E2E-SELECTORS`, `AUTH-01..04`): their members are not all written out. */
function rangedFamilies(text: string): Set<string> {
  const families = new Set<string>()
  for (const word of wordsOf(text)) {
    const first = word.split('..')[0]
    if (word.includes('..') && wholeId.test(first)) families.add(idFamily(first))
  }
  return families
}

/** A line that defines a requirement the way GSD's template does (`- [ ] **AUTH-01**: …`), or a table row starting with an id. */
const definingLine = /^[ \t]*(?:[-*][ \t]+(?:\[[ xX]\][ \t]+)?\*\*|\|[ \t]*\**)([A-Z][\w.-]*)/

/** The ids REQUIREMENTS.md defines, one per defining line, as written. */
function definedIds(text: string): string[] {
  return text.split('\n').flatMap((line) => {
    const id = trimSeparators(definingLine.exec(line)?.[1] ?? '')
    return wholeId.test(id) ? [id] : []
  })
}

/** What a planning tree's ROADMAP.md and REQUIREMENTS.md say of requirements; `undefined` for a document that is not there. */
export interface PlanningRequirements {
  /** Phase number → the ids ROADMAP.md assigns to it. */
  roadmap?: Map<string, string[]>
  /** The ids REQUIREMENTS.md, ROADMAP.md (where the template says plans take them from) and the milestones' archived `*-REQUIREMENTS.md` name, upper-cased. */
  defined?: Set<string>
  /** The families (`idFamily`) of the ids REQUIREMENTS.md defines line by line, but those a range names (`AUTH-01..04`), whose members are not all written out. */
  families?: Set<string>
}

const readText = (file: string) => {
  try {
    return fs.readFileSync(file, 'utf8')
  } catch {
    return undefined
  }
}

/** The requirements documents of the graph's planning tree, read once per graph (the graph is rebuilt when a Markdown file of the tree changes). */
export function planningRequirements(graph: PlanGraph): PlanningRequirements {
  return graph.memo('requirements', () => {
    const roadmap = readText(path.join(graph.root, 'ROADMAP.md'))
    const requirements = readText(path.join(graph.root, 'REQUIREMENTS.md'))
    let defined: Set<string> | undefined
    let families: Set<string> | undefined
    // Only a document that defines ids the way GSD's template does (`- [ ] **AUTH-01**: …`, or a table row) is read.
    const defining = requirements === undefined ? [] : definedIds(requirements)
    if (requirements !== undefined && defining.length > 0) {
      defined = new Set<string>()
      const milestones = path.join(graph.root, 'milestones')
      let archived: string[] = []
      try {
        archived = fs.readdirSync(milestones).filter((name) => /REQUIREMENTS\.md$/i.test(name))
      } catch {
        // No archived milestones.
      }
      const texts = [requirements, roadmap ?? '', ...archived.map((name) => readText(path.join(milestones, name)) ?? '')]
      for (const text of texts) for (const id of idsIn(text)) defined.add(id)
      const ranged = new Set(texts.flatMap((text) => [...rangedFamilies(text)]))
      // Families only of the ids REQUIREMENTS.md defines line by line: prose (`e-mail`) and other documents' ids name none.
      families = new Set(defining.map(idFamily).filter((family) => !ranged.has(family)))
    }
    return {
      ...(roadmap === undefined ? {} : {roadmap: roadmapRequirements(roadmap)}),
      ...(defined && families ? {defined, families} : {})
    }
  })
}
