import fs from 'node:fs'
import path from 'node:path'
import markdown from '@eslint/markdown'
import {Linter} from 'eslint'
import fc from 'fast-check'
import {VFile} from 'vfile'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {runHook} from '../src/cli/hook.js'
import planlint from '../src/eslint/index.js'
import {fixFiles} from '../src/fix.js'
import {lintFiles} from '../src/lint.js'
import {parseFrontmatter} from '../src/model/frontmatter.js'
import {brokenPlan, cleanPlan, planWith, removeTree, writeTree} from './support/tree.js'

/**
 * Property-based fuzzing of every front end with generated and mutated plans
 * (issue 13, item 7). `npm test` runs a fixed seed and few runs; a longer run:
 * `FUZZ_RUNS=500 FUZZ_SEED=$RANDOM npx vitest run test/fuzz.test.ts`.
 */
const runs = Number(process.env.FUZZ_RUNS ?? 25)
const seed = Number(process.env.FUZZ_SEED ?? 13)
const settings = {seed, numRuns: runs, endOnFailure: true}

const phase = '.planning/phases/01-storage'

/** What agents write wrongly, as pieces to splice into a plan. */
const hostilePieces = fc.oneof(
  fc.constantFrom('<task', '<task type="', '</ta', '<task type="auto">', '</task>', '<action>', '</action>', '<verify>', '<!--', '-->', '<!-- planlint-disable ', '<!-- planner-region-allow: ', '<![CDATA[', '<?x', '</', '<>'),
  fc.constantFrom('---', '---\n', '```', '```\n', '~~~', '\n    ', '{', '}', '[', ']', '"', "'", '*', '&a ', '*a', ': ', '- ', '#', '`', '|', '\\'),
  fc.constantFrom('\u0000', '\uFFFD', '\uFEFF', '\r', '\r\n', '\n', '\t', '\u2028', '\uD800', 'é'),
  fc.tuple(fc.constantFrom('<a>', '<verify>', '- ', '[', '{', ' ', '-', '`', '<!--', 'x'), fc.integer({min: 1, max: 3000})).map(([unit, count]) => unit.repeat(count)),
  fc.string({maxLength: 40})
)

/** A plan, then up to 8 hostile pieces spliced in at random places, and maybe cut short. */
const mutatedPlan = fc
  .tuple(
    fc.constantFrom(cleanPlan, brokenPlan, planWith('03', ['01-01', '01-02'], {autonomous: false})),
    fc.array(fc.tuple(fc.double({min: 0, max: 1, noNaN: true}), hostilePieces), {maxLength: 8}),
    fc.option(fc.double({min: 0, max: 1, noNaN: true}))
  )
  .map(([base, splices, cut]) => {
    let text = base
    for (const [where, piece] of splices) {
      const at = Math.floor(where * text.length)
      text = text.slice(0, at) + piece + text.slice(at)
    }
    return cut === null ? text : text.slice(0, Math.floor(cut * text.length))
  })

/** Frontmatters of the shapes that break YAML readers: alias bombs, deep collections, huge lists. */
const hostileFrontmatter = fc
  .oneof(
    fc.integer({min: 2, max: 9}).map((levels) => {
      const lines = ['a0: &a0 [x, x, x, x, x, x, x, x, x]']
      for (let level = 1; level < levels; level++) lines.push(`a${level}: &a${level} [${Array(9).fill(`*a${level - 1}`).join(', ')}]`)
      return `${lines.join('\n')}\ndepends_on: *a${levels - 1}\n`
    }),
    fc.integer({min: 1, max: 400}).map((depth) => `deep: ${'['.repeat(depth)}x${']'.repeat(depth)}\n`),
    fc.integer({min: 1, max: 400}).map((depth) => `deep:\n${'- '.repeat(depth)}x\n`),
    fc.integer({min: 0, max: 3000}).map((count) => `depends_on: [${Array.from({length: count}, (_, index) => `"01-${index}"`).join(', ')}]\n`),
    fc.constant('d: &d "01-01"\ndepends_on: [*d]\n__proto__: {polluted: true}\n')
  )
  .map((yaml) => `---\nphase: 01-storage\nplan: 04\n${yaml}---\n\n<task type="auto">\n  <name>x</name>\n</task>\n`)

const anyPlan = fc.oneof(mutatedPlan, hostileFrontmatter)

let root: string
beforeAll(() => {
  root = writeTree([{path: `${phase}/01-01-PLAN.md`, text: cleanPlan}])
})
afterAll(() => removeTree(root))

const planPath = () => path.join(root, phase, '01-02-PLAN.md')

/** The number of lines of `text` as CommonMark counts them (`\n`, `\r\n` and a lone `\r` end a line). */
const lineCount = (text: string) => text.split(/\r\n|\r|\n/).length

/** Lints `text` as a plan of the tree, in memory, and checks what every front end must: no throw, no crash message, every position inside the file. */
async function lintChecked(text: string) {
  const [file] = await lintFiles({paths: [new VFile({path: planPath(), cwd: root, value: text})], cwd: root, preset: 'recommended'})
  const lines = lineCount(text)
  for (const message of file.messages) {
    expect(message.message).not.toMatch(/crashed|Maximum call stack|could not read all of this file/)
    expect(message.line ?? 1).toBeGreaterThanOrEqual(1)
    expect(message.line ?? 1).toBeLessThanOrEqual(lines)
  }
  return file
}

const yamlErrors = (text: string) => {
  const frontmatter = parseFrontmatter(text)
  return frontmatter ? frontmatter.errors.length : Number.POSITIVE_INFINITY
}

describe('fuzzing the core', () => {
  it('never throws, never crashes a rule, and puts every message inside the file', async () => {
    await fc.assert(fc.asyncProperty(anyPlan, async (text) => void (await lintChecked(text))), settings)
  }, 120_000)

  it('--fix output parses no worse, and a second pass changes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(anyPlan, async (text) => {
        const once = await fixFiles({paths: [new VFile({path: planPath(), cwd: root, value: text})], cwd: root, preset: 'recommended', dryRun: true})
        const after = once.fixed[0]?.after ?? text
        expect(yamlErrors(after)).toBeLessThanOrEqual(yamlErrors(text))
        const twice = await fixFiles({paths: [new VFile({path: planPath(), cwd: root, value: after})], cwd: root, preset: 'recommended', dryRun: true})
        expect(twice.fixed).toEqual([])
      }),
      settings
    )
  }, 120_000)
})

describe('fuzzing the front ends', () => {
  it('the CLI, the hook and the ESLint plugin answer every plan, bytes and all', async () => {
    const {main} = await import('../src/cli/main.js')
    const linter = new Linter({cwd: root})
    const config = [...planlint.configs.recommended, {plugins: {markdown}}]
    await fc.assert(
      fc.asyncProperty(anyPlan, fc.constantFrom('utf8', 'invalid-utf8', 'bom'), async (text, encoding) => {
        const bytes =
          encoding === 'utf8' ? Buffer.from(text) : encoding === 'bom' ? Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]) : Buffer.concat([Buffer.from(text.slice(0, 40)), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from(text.slice(40))])
        fs.writeFileSync(planPath(), bytes)
        let stdout = ''
        let stderr = ''
        const io = {cwd: root, stdout: (chunk: string) => void (stdout += chunk), stderr: (chunk: string) => void (stderr += chunk), isTTY: false}
        expect(await main(['--format', 'json', '.planning'], io), stderr).toBeLessThan(2)
        const [result] = (JSON.parse(stdout) as Array<{filePath: string; messages: Array<{line: number}>}>).filter((entry) => entry.filePath === planPath())
        const lines = lineCount(fs.readFileSync(planPath(), 'utf8'))
        expect(result.messages.every((message) => message.line >= 1 && message.line <= lines)).toBe(true)
        stdout = ''
        expect(await runHook(JSON.stringify({cwd: root, tool_input: {file_path: planPath()}}), io)).toBe(0)
        expect(stderr).toBe('')
        const messages = linter.verify(fs.readFileSync(planPath(), 'utf8'), config, {filename: planPath()})
        expect(messages.filter((message) => message.fatal || /crashed|could not read all/.test(message.message))).toEqual([])
      }),
      {...settings, numRuns: Math.max(5, Math.round(runs / 2))}
    )
  }, 180_000)
})

/** CPU time of one in-memory lint of `text` (the better of two, so that a busy machine adds little). */
async function cpuTime(text: string, fix = false): Promise<number> {
  let best = Number.POSITIVE_INFINITY
  for (let attempt = 0; attempt < 2; attempt++) {
    const started = process.cpuUsage()
    const file = new VFile({path: planPath(), cwd: root, value: text})
    if (fix) await fixFiles({paths: [file], cwd: root, preset: 'recommended', dryRun: true})
    else await lintFiles({paths: [file], cwd: root, preset: 'recommended'})
    const used = process.cpuUsage(started)
    best = Math.min(best, used.user + used.system)
  }
  return best
}

/** A plan with one human-action whose `<action>` is `action`. */
const humanAction = (action: string) => `${cleanPlan}<task type="checkpoint:human-action">\n  <name>Log in</name>\n  <action>${action}</action>\n</task>\n`

/** Shapes that were super-linear once: each is the text for a count `n` of its repeated part. */
const shapes: Array<{name: string; text: (n: number) => string; fix?: boolean; n?: number}> = [
  {name: 'suppression comments', text: (n) => cleanPlan + '<!-- planlint-disable-next-line task-markup -->\n<task>\n'.repeat(n)},
  {name: 'lint ignore comments in one block', text: (n) => cleanPlan + '<!--lint ignore task-markup-->\n'.repeat(n) + '<task>\n'},
  {name: 'fixable findings', fix: true, n: 150, text: (n) => brokenPlan + Array.from({length: n}, (_, index) => `<task type="checkpoint:decision" gate="blocking" auto_select="opton-${index}">\n<options><option id="option-${index}"><name>A</name></option></options>\n</task>\n`).join('')},
  {name: 'an allow comment never closed', text: (n) => cleanPlan + `<!-- planner-region-allow: ${' '.repeat(n * 20)}r${' '.repeat(n * 20)}\n`},
  {name: 'a brace glob in <files>', text: (n) => cleanPlan.replace('<files>', `<files>${'{'.repeat(n * 20)}*${','.repeat(n * 20)}`)},
  {name: 'elements nested past the cap', text: (n) => cleanPlan.replace('<action>', `<action>${'<verify>'.repeat(n)}x${'</verify>'.repeat(n)}`)},
  {name: 'lone CRs', text: (n) => cleanPlan.replace(/\n/g, '\r') + 'Line.\r'.repeat(n * 4)},
  {name: 'sentences of a human-action on one line', text: (n) => cleanPlan + `<task type="checkpoint:human-action">\n  <name>Log in</name>\n  <action>${'Run. a. '.repeat(n * 10)}</action>\n</task>\n`},
  {name: 'commands of a human-action on one line', text: (n) => cleanPlan + `<task type="checkpoint:human-action">\n  <name>Log in</name>\n  <action>${'Run make a. '.repeat(n * 10)}</action>\n</task>\n`},
  {name: 'clauses a bot does, on the line of a human-action', text: (n) => humanAction(Array.from({length: n * 10}, (_, index) => `the PR runs x; run \`npm t${index}\``).join(' '))},
  {name: 'asks of a human-action, sentence after sentence', text: (n) => humanAction('Deploy the app. '.repeat(n * 10))},
  {name: 'statements of a human-action context on one line', text: (n) => cleanPlan + `<task type="checkpoint:human-action">\n  <name>Move</name>\n  <context>${'After this rename, the repo lives on github and then rename it. '.repeat(n * 10)}</context>\n</task>\n`},
  {name: 'commands between the parts of a human-action the person does not read', text: (n) => humanAction(Array.from({length: n * 10}, (_, index) => `Run \`npm t${index}\`\n<done>x</done>`).join('\n'))},
  {name: 'paths and notes after a file verb of a human-action on one line', text: (n) => cleanPlan + `<task type="checkpoint:human-action">\n  <name>Notes</name>\n  <action>${'add a note to a/b-c/d/e-f/g-h '.repeat(n * 10)}</action>\n</task>\n`},
  {name: 'shared-file note wording on one line', text: (n) => cleanPlan + `${'Both plans appen to distinct sectio. '.repeat(n * 3)}src/storage/step-02.ts is append-only for these plans.\n`},
  {name: '`@` paths after list markers on one line', text: (n) => cleanPlan + '\t- @src/a/b.ts  * @src/c.ts'.repeat(n * 10) + '\n'},
  {name: 'git commands of one pipeline in a check', n: 2000, text: (n) => cleanPlan + `<task type="auto">\n  <name>Count</name>\n  <action>Count.</action>\n  <verify>${'git log 2>&1 | '.repeat(n)}wc -l == 0</verify>\n</task>\n`},
  {name: "git's global options, git after git, in one check", n: 1000, text: (n) => cleanPlan + `<task type="auto">\n  <name>Count</name>\n  <action>Count.</action>\n  <verify>${'git -C '.repeat(n)}x | wc -l == 0</verify>\n</task>\n`},
  {name: 'git commands in $(…) of one check', n: 2000, text: (n) => cleanPlan + `<task type="auto">\n  <name>Count</name>\n  <action>Count.</action>\n  <verify>echo ${'$(git log | wc -l) '.repeat(n)}-gt 5</verify>\n</task>\n`},
  {name: 'old code quoted line by line in an action, and searches said on one line', text: (n) => cleanPlan + `<task type="auto">\n  <name>Swap</name>\n  <action>\n${'  Currently:\n      oldFetch(url)\n'.repeat(n)}  ${'Grep for oldFetch and '.repeat(n * 10)}\n  </action>\n  <verify>! grep -q 'oldFetch' src/a.ts</verify>\n</task>\n`},
  {name: 'steps of a search said as a check, on one line', text: (n) => cleanPlan + `<task type="auto">\n  <name>Swap</name>\n  <action>\n  ${'1. Check src/a for oldFetch before it: '.repeat(n * 10)}\n  </action>\n  <verify>! grep -q 'oldFetch' src/a.ts</verify>\n</task>\n`},
  {name: 'a literal said again and again on one line of a task, taken out by a later one', text: (n) => cleanPlan + `<task type="auto">\n  <name>Stub</name>\n  <action>\n  ${'keep the oldFetch stub; '.repeat(n * 10)}\n  </action>\n</task>\n<task type="auto">\n  <name>Swap</name>\n  <action>Replace oldFetch.</action>\n  <verify>! grep -q 'oldFetch' src/a.ts</verify>\n</task>\n`},
  {name: 'tasks that each say a literal and take it out, before the task that checks it', n: 60, text: (n) => cleanPlan + `<task type="auto">\n  <name>Stub</name>\n  <action>Keep oldFetch.</action>\n</task>\n` + `<task type="auto">\n  <name>Swap</name>\n  <action>Keep oldFetch for now.\nThen replace oldFetch.</action>\n</task>\n`.repeat(n) + `<task type="auto">\n  <name>Check</name>\n  <action>Check.</action>\n  <verify>! grep -q 'oldFetch' src/a.ts</verify>\n</task>\n`},
  {name: 'a long dotted word where a line may name the file its code goes to', text: (n) => cleanPlan + `<task type="auto">\n  <name>Swap</name>\n  <action>\n  In src/${'a.b-'.repeat(n * 10)}, add oldFetch\n\`\`\`ts\noldFetch()\n\`\`\`\n  </action>\n  <verify>! grep -q 'oldFetch' src/a.ts</verify>\n</task>\n`},
  {name: 'paths of one sentence that says they are left alone', text: (n) => cleanPlan + `<task type="auto">\n  <action>${'Do not touch src/a/b.ts, not modified src/c.ts '.repeat(n * 10)}</action>\n</task>\n`},
  {name: 'files pointed to, clause after clause, on one line of an action', n: 60, text: (n) => cleanPlan + `<task type="auto">\n  <name>Wire</name>\n  <files>scripts/build, src/a/b.ts</files>\n  <action>${'see scripts/build and see src/a/b.ts; '.repeat(n * 10)}</action>\n</task>\n`},
  {name: 'one path naming a file again and again', n: 1500, text: (n) => cleanPlan + `<task type="auto">\n  <name>Wire</name>\n  <files>src/a/b.ts</files>\n  <action>${'src/a/b.ts/'.repeat(n * 10)}</action>\n</task>\n`},
  {name: 'one path through route groups and dynamic segments naming a file again and again', n: 1500, text: (n) => cleanPlan + `<task type="auto">\n  <name>Wire</name>\n  <files>src/(g)/[[...s]]/b.ts</files>\n  <action>${'(g)/[[...s]]/b.ts)]'.repeat(n * 10)}</action>\n</task>\n`},
  {name: 'a test file handed to a test runner again and again, in a task that asks for tests', n: 60, text: (n) => cleanPlan + `<task type="auto">\n  <name>Test</name>\n  <files>tests/test_a.py</files>\n  <action>${'add a test and run pytest -k "a or b" -x tests/test_a.py; '.repeat(n * 10)}</action>\n</task>\n`},
  {
    name: 'files copied in one command each, and edited by name (max-tasks)',
    n: 60,
    text: (n) =>
      planWith('02', ['01-01'], {
        files: [...Array.from({length: n}, (_, index) => `assets/icons/i${index}.svg`), `app/__init__.py`],
        tasks: `<task type="auto">\n  <name>Icons</name>\n  <action>\n${Array.from({length: n}, (_, index) => `cp /usr/share/icons/i${index}.svg assets/icons/\nTweak i${index}.svg and app/__init__.py exports it\n`).join('')}  </action>\n</task>\n`
      })
  },
  {name: 'a long depends_on list', text: (n) => cleanPlan.replace('depends_on: ["01-01"]', `depends_on: [${Array.from({length: n}, (_, index) => `"01-${index + 10}"`).join(', ')}]`)}
]

describe('time linear in size', () => {
  // n and 10·n of the same shape: a linear cost grows about 10 times, a quadratic one 100 times.
  for (const shape of shapes) {
    it(`${shape.name}: ten times the input costs well under a hundred times the time`, async () => {
      const n = shape.n ?? 300
      const small = await cpuTime(shape.text(n), shape.fix)
      const large = await cpuTime(shape.text(10 * n), shape.fix)
      expect(large / small).toBeLessThan(35)
    }, 120_000)
  }
})
