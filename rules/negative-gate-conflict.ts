import path from 'node:path'
import {child, descendants, type Element} from '../src/model/markup.js'
import {blankTags, normalizePath, plainText, pathEntries} from '../src/plan.js'
import {defineRule} from '../src/rule.js'
import {
  allowListed,
  blankRanges,
  commitMessages,
  grepTarget,
  isRegionScoped,
  namesOldText,
  grepPatterns,
  negativeGreps,
  patternOccursIn,
  shellSegments,
  shellView
} from '../src/shell.js'
import type {PlanDocument} from '../src/model/document.js'
import type {Range} from '../src/model/text.js'

interface TaskFacts {
  task: Element
  name: string
  files: string[]
  /**
   * What the task requires: its `<action>` and `<acceptance_criteria>`,
   * without its commit messages and the patterns of its own negative greps
   * (a ban run again as a precondition agrees with the ban).
   */
  requires: string
}

/** Elements whose commands gate a task. `<automated>` sits inside `<verify>`, so it is read with it. */
const gateElements = new Set(['verify', 'acceptance_criteria'])

function factsOf(document: PlanDocument, view: string, task: Element): TaskFacts {
  const files = child(task, 'files')
  const name = child(task, 'name')
  return {
    task,
    name: name ? plainText(document, name).trim() : 'unnamed',
    files: files ? pathEntries(document, files).map((entry) => normalizePath(entry.path)) : [],
    requires: descendants(task)
      .filter((element) => element.name === 'action' || element.name === 'acceptance_criteria')
      .map((element) => {
        const [start, end] = element.contentRange
        const text = view.slice(start, end)
        return blankRanges(text, [...commitMessages(text), ...grepPatterns(text, 0, true)])
      })
      .join('\n')
  }
}

/** Whether a task's text needs a pattern: some line holds it other than as the text to replace. */
function needs(requires: string, pattern: string): boolean {
  return requires.split('\n').some((line) => !namesOldText(line) && patternOccursIn(pattern, line))
}

/**
 * A file-wide negative gate (`! grep -q 'X' f`, `grep -c 'X' f == 0`) must
 * not ban what a sibling task of the same plan needs in the same file: the
 * two checks cannot both pass. The rule follows GSD's own plan-structure
 * check (#968), for siblings that run after the ban.
 */
export default defineRule({
  id: 'negative-gate-conflict',
  description: 'A file-wide negative grep does not ban what a sibling task requires in the same file.',
  severity: 'warning',
  kinds: ['plan'],
  defaultOptions: {},
  check({document, report}) {
    if (document.tasks.length < 2) return
    const view = shellView(document.text)
    const allowed = allowListed(view, 'planner-region-allow')
    const tasks = document.tasks.map((task) => factsOf(document, view, task))
    const known = new Set(tasks.flatMap((facts) => facts.files))
    // A path has a separator or an extension, or is a file some task lists (`Dockerfile`); globs are not resolvable.
    const isFile = (token: string) =>
      !token.includes('*') && (token.includes('/') || /\.[a-zA-Z]{1,6}$/.test(token) || known.has(normalizePath(token)))
    // Every file-wide ban of the plan first: a sibling that bans a pattern itself does not need it.
    const bans: Array<{facts: TaskFacts; pattern: string; file: string; range: Range}> = []
    for (const facts of tasks) {
      const gates = descendants(facts.task).filter((element) => gateElements.has(element.name) && !(element.parent && gateElements.has(element.parent.name)))
      for (const gate of gates) {
        // Tags inside the gate become spaces so they do not read as file arguments.
        const [start, end] = gate.contentRange
        const text = blankTags(view.slice(start, end))
        for (const segment of shellSegments(text, start)) {
          if (!/grep/.test(segment.text) || isRegionScoped(segment.text)) continue
          // Each grep is read with its own command: `test "$(grep -c 'A' f)" = 0; test "$(grep -c 'B' f)" -ge 1` bans only A.
          for (const call of negativeGreps(segment.text)) {
            if (allowed.has(call.pattern)) continue
            const file = grepTarget(call, isFile)
            if (file) bans.push({facts, pattern: call.pattern, file, range: [segment.start + call.patternStart, segment.start + call.patternEnd]})
          }
        }
      }
    }
    for (const {facts, pattern, file, range} of bans) {
      const banned = normalizePath(file)
      // Tasks run in order: a ban in a later task on what an earlier one keeps is a planned removal, and both checks pass when they run.
      const sibling = tasks.find(
        (other) =>
          tasks.indexOf(other) > tasks.indexOf(facts) &&
          other.files.some((listed) => listed === banned || (!banned.includes('/') && path.posix.basename(listed) === banned)) &&
          !bans.some((ban) => ban.facts === other && ban.pattern === pattern) &&
          needs(other.requires, pattern)
      )
      if (!sibling) continue
      report({
        message: `This check bans \`${pattern}\` from all of \`${file}\`, but task "${sibling.name}" needs it in the same file, so both cannot pass: scope the check to a region (\`sed -n '/start/,/end/p' ${file} | grep …\`) or use a test, or add \`<!-- planner-region-allow: ${pattern} -->\` if intended`,
        range
      })
    }
  }
})
