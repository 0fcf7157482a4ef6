import {spawnSync} from 'node:child_process'
import fs from 'node:fs'
import {fileURLToPath} from 'node:url'
import {describe, expect, it} from 'vitest'
import {rules} from '../rules/index.js'
import {presets} from '../src/presets/index.js'

const read = (file: string) => fs.readFileSync(new URL(`../${file}`, import.meta.url), 'utf8')

/** The rows of the README's rules table: `| [`id`](docs/rules/id.md) | severity | fix | description |`. */
function rulesTable(readme: string) {
  const section = readme.slice(readme.indexOf('\n## Rules\n'), readme.indexOf('\n## ', readme.indexOf('\n## Rules\n') + 1))
  return section
    .split('\n')
    .filter((line) => line.startsWith('| ['))
    .map((line) => {
      const cells = line.slice(1, -1).split(/(?<!\\)\|/).map((cell) => cell.trim())
      const link = /^\[`([^`]+)`\]\(([^)]+)\)$/.exec(cells[0])
      return {id: link?.[1], link: link?.[2], severity: cells[1], fix: cells[2], description: cells[3], extra: cells.slice(4)}
    })
}

describe('README', () => {
  const readme = read('README.md')
  const table = rulesTable(readme)

  it('opens with a command that lints the bundled examples with npx, as its "What it catches" shows', () => {
    const [install, run] = /```sh\n(.*?)\s+#/.exec(readme)![1].split(' && ')
    expect(install).toBe('npm install')
    // What npx runs is the project's own bin, built by `npm install` (prepare): a fresh clone has no other.
    const result = spawnSync(run, {cwd: fileURLToPath(new URL('..', import.meta.url)), shell: true, encoding: 'utf8', env: {...process.env, NO_COLOR: '1'}})
    expect(result.stderr).not.toMatch(/Permission denied|not found/)
    // The README shows an excerpt, so its columns are padded less widely.
    const squeeze = (text: string) => text.replace(/[ \t]+/g, ' ')
    const shown = /bundled examples:\n\n```text\n([\s\S]*?)```/.exec(readme)![1].trimEnd().split('\n')
    for (const line of shown) expect(squeeze(result.stdout)).toContain(squeeze(line))
    expect(result.status).toBe(1)
  })

  it('lists every rule of rules/index.ts, once, with its default severity, whether it fixes, and its description', () => {
    expect(table.map((row) => row.id).sort()).toEqual(Object.keys(rules).sort())
    for (const row of table) {
      const rule = rules[row.id as keyof typeof rules]
      expect(row, row.id).toEqual({
        id: rule.id,
        link: `docs/rules/${rule.id}.md`,
        severity: rule.severity,
        fix: rule.fixable === 'fix' ? 'yes' : rule.fixable === 'suggestion' ? 'suggests' : '',
        description: rule.description,
        extra: []
      })
      expect(fs.existsSync(new URL(`../${row.link}`, import.meta.url)), row.link).toBe(true)
    }
  })

  it('names the rules the recommended preset turns off', () => {
    const off = Object.entries(presets.recommended.planlintRules).filter(([, setting]) => setting === 'off')
    expect(off.length).toBeGreaterThan(0)
    const note = readme.slice(readme.indexOf("Severity is the rule's default"), readme.indexOf('\n\n', readme.indexOf("Severity is the rule's default")))
    expect(note.match(/`[a-z-]+`/g)?.filter((id) => id.slice(1, -1) in rules).sort()).toEqual(off.map(([id]) => `\`${id}\``).sort())
  })

  it('links every guide of the "Ways in" section', () => {
    for (const guide of ['ci', 'editors', 'pre-commit', 'agent-hooks', 'suppression']) {
      expect(readme).toContain(`(docs/${guide}.md)`)
      expect(fs.existsSync(new URL(`../docs/${guide}.md`, import.meta.url))).toBe(true)
    }
  })
})

describe('docs/presets.md', () => {
  const page = read('docs/presets.md')

  it.each(Object.keys(presets) as Array<keyof typeof presets>)('explains every setting of %s that is not the rule default', (name) => {
    const start = page.indexOf(`\n## \`${name}\`\n`)
    expect(start).toBeGreaterThan(-1)
    const end = page.indexOf('\n## ', start + 1)
    const section = page.slice(start, end === -1 ? undefined : end)
    const documented = [...section.matchAll(/^\| \[`([a-z-]+)`\]/gm)].map((match) => match[1])
    const changed = Object.entries(presets[name].planlintRules).filter(([, setting]) => setting !== 'on').map(([id]) => id)
    expect(changed.filter((id) => !documented.includes(id))).toEqual([])
  })
})
