import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {planNodeFromText} from '../src/graph/graph.js'
import {pathsNamedIn} from '../src/graph/paths-named.js'
import type {GraphJson, PlanView} from '../src/graph/render-model.js'
import {planlint, repository, run} from './support/cli.js'
import {corpus, corpusPresent} from './support/corpus.js'
import {graphInProcess, graphvizInstalled, mermaidParser, renderDot} from './support/graph.js'
import {removeTree, writeTree} from './support/tree.js'

/** A plan of `phase` (`01-storage`) with the keys the graph reads; `extra` goes into the frontmatter. */
function plan(phase: string, number: string, dependsOn: string[], wave: number, title: string, extra = ''): string {
  return `---
phase: ${phase}
plan: ${number}
wave: ${wave}
depends_on: ${JSON.stringify(dependsOn)}
autonomous: true
${extra}---

# Plan ${phase.slice(0, 2)}-${number}: ${title}

<task type="auto">
  <name>Do it</name>
  <action>Do it.</action>
</task>
`
}

const hostileTitle = '"Q" [b] {c} (d) <script>x</script> #1 `t` & end | a\\b'

const files = [
  {path: '.planning/phases/01-storage/01-01-PLAN.md', text: plan('01-storage', '01', [], 1, 'Bucket')},
  {path: '.planning/phases/01-storage/01-01-SUMMARY.md', text: '# Summary\n'},
  {path: '.planning/phases/01-storage/01-02-PLAN.md', text: plan('01-storage', '02', ['01-01'], 2, 'Uploads')},
  {path: '.planning/phases/01-storage/01-03-PLAN.md', text: plan('01-storage', '03', ['01-02'], 2, 'Thumbnails')},
  {path: '.planning/phases/01-storage/01-04-PLAN.md', text: plan('01-storage', '04', ['01-01'], 2, 'Old uploads', 'status: superseded\n')},
  {path: '.planning/phases/01-storage/01-05-PLAN.md', text: plan('01-storage', '05', ['01-01'], 2, 'Pick a store').replace('autonomous: true', 'autonomous: false')},
  {path: '.planning/phases/02-api/02-01-PLAN.md', text: plan('02-api', '01', ['02-02'], 1, 'Users')},
  {path: '.planning/phases/02-api/02-02-PLAN.md', text: plan('02-api', '02', ['02-01'], 2, 'Health')},
  {path: '.planning/phases/02-api/02-03-PLAN.md', text: plan('02-api', '03', ['02-09', 'none'], 1, 'Metrics')},
  {path: '.planning/phases/03-ui/03-01-PLAN.md', text: plan('03-ui', '01', [], 1, hostileTitle)},
  {path: '.planning/milestones/v0.9-phases/09-spike/09-01-PLAN.md', text: plan('09-spike', '01', [], 1, 'Spike')}
]

let root: string
let graph: GraphJson
const plans = () => graph.trees[0].phases.flatMap((phase) => phase.waves.flatMap((wave) => wave.plans))
const planById = (id: string): PlanView => plans().find((view) => view.id === id)!

beforeAll(async () => {
  root = writeTree(files)
  const run = await graphInProcess(root, '--format', 'json')
  expect(run.code, run.stderr).toBe(0)
  graph = JSON.parse(run.stdout)
})
afterAll(() => removeTree(root))

describe('planlint graph --format json', () => {
  it('groups plans by phase folder and by implied wave', () => {
    const tree = graph.trees[0]
    expect(tree.root).toBe('.planning')
    // Folders in path order: a finished milestone's archive (milestones/) before phases/.
    expect(tree.phases.map((phase) => [phase.phase, phase.directory])).toEqual([
      ['9', '.planning/milestones/v0.9-phases/09-spike'],
      ['1', '.planning/phases/01-storage'],
      ['2', '.planning/phases/02-api'],
      ['3', '.planning/phases/03-ui']
    ])
    expect(tree.phases[1].waves.map((wave) => [wave.wave, wave.plans.map((view) => view.id)])).toEqual([
      [1, ['01-01']],
      [2, ['01-02', '01-04', '01-05']],
      [3, ['01-03']]
    ])
    expect(tree.phases[2].waves.map((wave) => [wave.wave, wave.plans.map((view) => view.id)])).toEqual([[null, ['02-01', '02-02', '02-03']]])
  })

  it('marks executed, superseded and checkpoint plans, and declared waves that differ from the implied one', () => {
    expect(planById('01-01')).toMatchObject({state: 'executed', title: 'Bucket', checkpoint: false, waveMismatch: false})
    expect(planById('01-04').state).toBe('superseded')
    expect(planById('09-01').state).toBe('archived')
    expect(planById('01-05')).toMatchObject({state: 'pending', checkpoint: true})
    expect(planById('01-03')).toMatchObject({declaredWave: 2, impliedWave: 3, waveMismatch: true})
    expect(planById('03-01').title).toBe(hostileTitle)
  })

  it('draws cycles and points unresolved entries at a missing node; `none` draws nothing', () => {
    const tree = graph.trees[0]
    expect(planById('02-01').cycle).toEqual(['.planning/phases/02-api/02-01-PLAN.md', '.planning/phases/02-api/02-02-PLAN.md', '.planning/phases/02-api/02-01-PLAN.md'])
    expect(planById('02-01').waveMismatch).toBe(false)
    expect(tree.edges.filter((edge) => edge.cycle).map((edge) => edge.entry)).toEqual(['02-02', '02-01'])
    expect(tree.missing).toEqual([{key: 'missing:.planning/phases/02-api/02-03-PLAN.md#1', entry: '02-09', reason: 'names no plan of this planning tree'}])
    expect(tree.edges.filter((edge) => edge.from.endsWith('02-03-PLAN.md'))).toEqual([{from: '.planning/phases/02-api/02-03-PLAN.md', to: tree.missing[0].key, entry: '02-09', cycle: false}])
  })

  it('--phase keeps one phase, by number or folder name', async () => {
    for (const phase of ['2', '02', '02-api']) {
      const run = await graphInProcess(root, '--format', 'json', '--phase', phase)
      expect(JSON.parse(run.stdout).trees[0].phases.map((view: {directory: string}) => view.directory)).toEqual(['.planning/phases/02-api'])
    }
    const none = await graphInProcess(root, '--phase', '7')
    expect(none).toMatchObject({code: 2, stderr: 'planlint graph: no plans of phase `7`\n'})
  })

  it('refuses an unknown format and a path that does not exist', async () => {
    expect(await graphInProcess(root, '--format', 'svg')).toMatchObject({code: 2, stderr: 'planlint graph: unknown format `svg` (known: mermaid, dot, json)\n'})
    expect(await graphInProcess(root, 'nowhere')).toMatchObject({code: 2, stderr: 'planlint graph: no such file or folder: nowhere\n'})
  })
})

describe('planlint graph --format mermaid (the default)', () => {
  it('is accepted by Mermaid, with every mark in the labels and cycles in red', async () => {
    const drawn = planlint(root, 'graph')
    expect(drawn.code, drawn.stderr).toBe(0)
    const mermaid = await mermaidParser()
    await expect(mermaid.parse(drawn.stdout)).resolves.toMatchObject({diagramType: 'flowchart-v2'})
    expect(drawn.stdout).toContain('["01-01 · Bucket<br/>✓ executed"]')
    expect(drawn.stdout).toContain('{{"01-05 · Pick a store<br/>⚑ checkpoint"}}')
    expect(drawn.stdout).toContain('⊘ superseded')
    expect(drawn.stdout).toContain('▣ archived')
    expect(drawn.stdout).toContain('⚠ wave 2, implied 3')
    expect(drawn.stdout).toMatch(/\["missing: 02-09<br\/>names no plan of this planning tree"\]/)
    expect(drawn.stdout).toMatch(/linkStyle \d+,\d+ stroke:#c62828/)
    // The hostile title is entities only: nothing in it closes the label or reaches the HTML.
    expect(drawn.stdout).toContain('#34;Q#34; [b] {c} (d) #60;script#62;x#60;/script#62; #35;1 #96;t#96; #38; end | a#92;b')
  })

  it('accepts the bundled examples', async () => {
    const run = await graphInProcess(repository, 'examples/.planning')
    const mermaid = await mermaidParser()
    await expect(mermaid.parse(run.stdout)).resolves.toBeTruthy()
    expect(run.stdout).toContain('["missing: 01-09<br/>names no plan of this planning tree"]')
  })

  it('rejects what a broken label would be (the parser is not a rubber stamp)', async () => {
    const mermaid = await mermaidParser()
    await expect(mermaid.parse('flowchart TB\n  p1["a "quote" b"]\n')).rejects.toThrow(/Parse error/)
  })

  // Three tune trees: many waves, a wide phase, and many phases.
  describe.skipIf(!corpusPresent)('corpus trees', () => {
    for (const repositoryName of ['sb-arnav__BLADE', 'henols__c64-re-tools', 'Djelibeybi__lifx-async']) {
      it(repositoryName, async () => {
        const run = await graphInProcess(corpus, path.join(repositoryName, '.planning'))
        expect(run.code, run.stderr).toBe(0)
        const mermaid = await mermaidParser()
        await expect(mermaid.parse(run.stdout)).resolves.toBeTruthy()
        expect(run.stdout.split('\n').filter((line) => /^ {6}p\d+/.test(line)).length).toBeGreaterThan(30)
      })
    }
  })
})

describe.skipIf(!graphvizInstalled)('planlint graph --format dot', () => {
  it("is rendered by Graphviz's dot -Tsvg, labels intact", async () => {
    const run = await graphInProcess(root, '--format', 'dot')
    const rendered = renderDot(run.stdout)
    expect(rendered.stderr).toBe('')
    expect(rendered.status).toBe(0)
    expect(rendered.svg).toContain('<svg')
    // SVG escapes the title's markup; the text is the title as written.
    expect(rendered.svg).toContain('&quot;Q&quot; [b] {c} (d) &lt;script&gt;x&lt;/script&gt; #1 `t` &amp; end | a\\b')
    expect(rendered.svg).toContain('⚠ wave 2, implied 3')
    expect(rendered.svg).toContain('missing: 02&#45;09')
    expect(rendered.svg).toMatch(/stroke="#c62828"/)
  })

  it("draws docs/graph.md's picture: scripts/graph-image.mjs gives the committed SVG", () => {
    const check = run(process.execPath, ['scripts/graph-image.mjs', '--check'], repository)
    expect(check.stdout, check.stderr).toBe('docs/images/graph-example.svg is up to date\n')
    expect(check.code).toBe(0)
  })

  it('renders the bundled examples', async () => {
    const run = await graphInProcess(repository, '--format', 'dot', 'examples/.planning')
    const rendered = renderDot(run.stdout)
    expect(rendered.status, rendered.stderr).toBe(0)
    expect(rendered.svg).toContain('01&#45;02 · Object storage')
  })
})

describe('the files a plan reads (`filesRead`)', () => {
  const filesRead = (body: string) => planNodeFromText('/p/.planning/phases/01-x/01-02-PLAN.md', `---\nwave: 1\n---\n${body}`)?.filesRead ?? []

  it('takes an `@` in a `<context>` and one that starts a line, after indentation and a list marker', () => {
    expect(filesRead('<context>\n@src/a.ts\nAlso @src/b.ts, then @./src/c.ts.\n</context>\n')).toEqual(['src/a.ts', 'src/b.ts', 'src/c.ts'])
    expect(filesRead('@src/d.ts\n  - @src/e.ts\n\t* @src/f.ts\n12. @src/g.ts\n3) @src/h.ts\n')).toEqual(['src/d.ts', 'src/e.ts', 'src/f.ts', 'src/g.ts', 'src/h.ts'])
  })

  it('leaves an `@` within a sentence outside `<context>`: an npm scope, a decorator, a mark before it', () => {
    expect(filesRead('Install @types/node and @tanstack/react-query.\nAdd `@app.get("/x")`.\n-@src/i.ts\nx @src/j.ts\n`@src/k.ts`\n')).toEqual([])
    expect(filesRead('<context>\n@src/a.ts\n</context>\nUse @src/b.ts.\n')).toEqual(['src/a.ts'])
  })

  it('reads a `<context>` never closed to the end of the text', () => {
    expect(filesRead('Use @src/a.ts.\n<context>\nSee @src/b.ts\n')).toEqual(['src/b.ts'])
  })
})

describe('the paths a plan names (`pathsNamedIn`)', () => {
  const named = (body: string, bodyStart = 0) => pathsNamedIn(body, bodyStart).pathsNamed ?? []

  it('takes a word with a folder and an extension, from its body only, without a full stop, a colon or a leading ./', () => {
    expect(named('Run `cat ./fixtures/a.csv` then node scripts/b.mjs: ok. See src/c.ts.')).toEqual(['fixtures/a.csv', 'scripts/b.mjs', 'src/c.ts'])
    expect(named('files: src/x.ts\n---\nEdit src/y.ts', 'files: src/x.ts\n---\n'.length)).toEqual(['src/y.ts'])
    expect(named('See src/a.ts.. and src/b.ts:. Then etc...')).toEqual(['src/a.ts', 'src/b.ts'])
  })

  it('leaves words that are no path: no folder, no extension, a URL, an absolute path, a word past 300 characters', () => {
    expect(named(`Edit README.md and src/lib, fetch https://a.io/b.js, read /etc/c.conf and ${'d/'.repeat(200)}e.ts`)).toEqual([])
  })

  it('drops the paths of a sentence that says the file is left alone', () => {
    expect(named('src/a.ts is not modified by this plan. Do not touch src/b.ts; don\'t edit src/c.ts\nleave src/d.ts untouched')).toEqual([])
    expect(named('No changes to src/a.ts. It must never be changed: src/b.ts')).toEqual([])
  })

  it('keeps the paths of the sentences around it, and of one that says the plan reads the file all the same', () => {
    expect(named('Read src/a.ts. Do not modify src/b.ts.\nRun src/c.test.ts')).toEqual(['src/a.ts', 'src/c.test.ts'])
    expect(named('Do not touch src/a.ts. Run src/b.test.ts; do not edit src/c.ts, nor move it away from src/d/')).toEqual(['src/b.test.ts'])
    expect(named('<done>Nothing left</done><action>Change src/a.ts</action>')).toEqual(['src/a.ts'])
    expect(named('Reuse src/a.ts verbatim, do NOT modify it.\n- From src/b.ts (not modified here):\nsrc/c.ts is not modified but referenced in tests')).toEqual(['src/a.ts', 'src/b.ts', 'src/c.ts'])
  })

  it('reads a negator as saying nothing of a verb more than three words or a comma after it', () => {
    expect(named('If the test does not pass, edit src/a.ts.')).toEqual(['src/a.ts'])
    expect(named('If it is not green after three runs modify src/a.ts')).toEqual(['src/a.ts'])
    expect(named('The tests in src/a.test.ts pass unchanged')).toEqual(['src/a.test.ts'])
    expect(named('It is not to be modified: src/a.ts')).toEqual([])
  })
})
