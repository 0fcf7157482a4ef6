#!/usr/bin/env node
// Writes `dist/plugins/<id>.js` (and its types) for every rule after `tsc`:
// `planlint/rules/<id>` (see package.json `exports`) default-exports the
// rule's remark plugin, which src/plugins.ts makes from its definition, so
// that a `.remarkrc` naming one rule and a preset listing it share one plugin.
import fs from 'node:fs'

const {rules} = await import('../dist/rules/index.js')
const folder = new URL('../dist/plugins/', import.meta.url)
fs.rmSync(folder, {recursive: true, force: true})
fs.mkdirSync(folder, {recursive: true})
for (const id of Object.keys(rules)) {
  const key = JSON.stringify(id)
  fs.writeFileSync(new URL(`${id}.js`, folder), `import {remarkPlugins} from '../src/plugins.js'\n\nexport default remarkPlugins[${key}]\n`)
  fs.writeFileSync(
    new URL(`${id}.d.ts`, folder),
    `import type {RemarkLintRule} from '../src/remark.js'\n\ndeclare const plugin: RemarkLintRule\nexport default plugin\n`
  )
}
