import {child} from '../src/model/markup.js'
import {contentLines, plainText, taskType} from '../src/plan.js'
import {defineRule} from '../src/rule.js'

/** Something to look at: a URL, a route or a file. */
const target = /\bhttps?:\/\/|\blocalhost\b|\b127\.0\.0\.1\b|(?:^|[\s`(])\/[\w-]+|[\w.-]+\/[\w./-]+|\b[\w-]+\.(?:[jt]sx?|py|md|json|ya?ml|html|css|swift|kt|rs|go|rb|java|png|jpe?g|svg|pdf|csv|log|sql|txt)\b/i
/** An expected outcome: what the person should see. */
const outcome =
  /\b(should|shows?|showing|shown|displays?|appears?|sees?|returns?|expect(?:ed|s)?|visible|renders?|loads?|contains?|matches|equals|reads|prints?|plays?|succeeds?|fails?|redirects?|lists?|hidden|disabled|enabled|no (?:errors?|warnings?))\b|→|=>|==/i
/** "Check it works" and its kin: a request with no object and no outcome. */
const vague =
  /\b(check|verify|confirm|make sure|ensure|test|see if|see that)\b[^.\n]{0,25}\b(it|everything|all|things?|this|that|feature|app|ui|page|changes?)\b[^.\n]{0,15}\b(works?|working|correct(?:ly)?|fine|ok(?:ay)?|good|right|as expected)\b/i
const listItem = /^\s*(?:[-*+]|\d+[.)]|\[[ x]\])\s+/

/**
 * A human-verify tells the person exactly what to look at and what they
 * should see: "Check it works" sends them off to guess.
 */
export default defineRule({
  id: 'specific-verification',
  description: "A human-verify's `<how-to-verify>` names what to look at (a URL, a file or steps) and what to expect.",
  severity: 'warning',
  kinds: ['plan'],
  defaultOptions: {},
  check({document, report}) {
    for (const task of document.tasks) {
      if (taskType(task) !== 'checkpoint:human-verify') continue
      const howTo = child(task, 'how-to-verify')
      if (!howTo) continue
      const text = plainText(document, howTo).trim()
      const lines = contentLines(document, howTo)
      const last = lines[lines.length - 1]
      const range: [number, number] =
        lines.length > 0 ? [lines[0].start + lines[0].text.search(/\S/), last.start + last.text.trimEnd().length] : howTo.openTag
      const words = text.split(/\s+/).filter(Boolean).length
      if (text === '') {
        report({message: '`<how-to-verify>` is empty: list the URL or file to look at and what the person should see', range})
        continue
      }
      const steps = lines.filter((line) => listItem.test(line.text)).length + (text.match(/,/g)?.length ?? 0)
      if (target.test(text) || steps >= 2) continue
      if (vague.test(text) && words <= 12) {
        report({
          message: `\`${text}\` does not say what to look at: name the URL or file and the steps, each with what the person should see`,
          range
        })
      } else if (lines.length === 1 && words <= 8 && !outcome.test(text)) {
        report({
          message: `\`${text}\` names no URL, file or expected outcome: say where to look and what the person should see`,
          range
        })
      }
    }
  }
})
