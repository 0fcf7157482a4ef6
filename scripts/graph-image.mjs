#!/usr/bin/env node
// Writes the picture in docs/graph.md: `planlint graph --format dot` of the
// bundled examples, rendered by Graphviz (`dot -Tsvg`), never drawn by hand.
// Run after `npm run build`; test/graph.test.ts checks the picture is what
// this pipeline gives today.
//
//   node scripts/graph-image.mjs [--check]
import {spawnSync} from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import {fileURLToPath} from 'node:url'

const repository = fileURLToPath(new URL('..', import.meta.url))
export const imagePath = path.join(repository, 'docs/images/graph-example.svg')

/** The SVG of the bundled examples' graph. */
export function renderExample() {
  const graph = spawnSync(process.execPath, [path.join(repository, 'dist/src/cli/bin.js'), 'graph', '--format', 'dot', 'examples/.planning'], {cwd: repository, encoding: 'utf8'})
  if (graph.status !== 0) throw new Error(`planlint graph failed: ${graph.stderr}`)
  const svg = spawnSync('dot', ['-Tsvg'], {input: graph.stdout, encoding: 'utf8'})
  if (svg.status !== 0) throw new Error(`dot -Tsvg failed (is Graphviz installed?): ${svg.stderr}`)
  return svg.stdout
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const svg = renderExample()
  if (process.argv.includes('--check')) {
    const same = fs.existsSync(imagePath) && fs.readFileSync(imagePath, 'utf8') === svg
    console.log(same ? `${path.relative(repository, imagePath)} is up to date` : `${path.relative(repository, imagePath)} is stale: run node scripts/graph-image.mjs`)
    process.exitCode = same ? 0 : 1
  } else {
    fs.mkdirSync(path.dirname(imagePath), {recursive: true})
    fs.writeFileSync(imagePath, svg)
    console.log(`wrote ${path.relative(repository, imagePath)}`)
  }
}
