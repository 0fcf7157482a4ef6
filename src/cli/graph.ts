import fs from 'node:fs'
import path from 'node:path'
import {toDot, toMermaid} from '../graph/render.js'
import {treeView, type GraphJson} from '../graph/render-model.js'
import {LintSession} from '../session.js'
import {commandLine, knownFormat} from './args.js'
import type {CliIo} from './main.js'

export const graphHelp = `Usage: planlint graph [options] [paths...]

Draws the plan graph of the planning trees that hold the paths (default:
.planning): plans grouped by phase and by the wave their depends_on implies,
with executed, superseded and checkpoint plans, unresolved entries, cycles
and declared waves that differ from the implied one marked (docs/graph.md).

Options:
  --format <name>   mermaid, dot or json (default: mermaid)
  --phase <phase>   only this phase: its number (2, 02, 2.1) or folder name (02-api)
  -h, --help        show this help`

const graphFormats = {
  mermaid: toMermaid,
  dot: toDot,
  json: (graph: GraphJson) => JSON.stringify(graph, null, 2) + '\n'
}

/** Largest plan read for its title: the graph's own scan skips larger files too. */
const maxPlanBytes = 4 * 1024 * 1024

function readPlanText(filePath: string): string | undefined {
  try {
    return fs.statSync(filePath).size > maxPlanBytes ? undefined : fs.readFileSync(filePath, 'utf8')
  } catch {
    return undefined
  }
}

/** The planning tree a given path names: the `.planning` above or inside it, else the folder itself (as lint's roots). */
function treeRootOf(session: LintSession, absolute: string): string {
  if (!fs.statSync(absolute).isDirectory()) return session.planningRootOf(absolute)
  const above = session.planningRootOf(path.join(absolute, '.planlint-graph'))
  if (above !== absolute || path.basename(absolute) === '.planning') return above
  const inside = path.join(absolute, '.planning')
  return fs.existsSync(inside) && fs.statSync(inside).isDirectory() ? inside : absolute
}

/** `planlint graph`; returns the exit code. */
export async function runGraph(argv: string[], io: CliIo): Promise<number> {
  const parsed = commandLine('planlint graph', argv, {format: {type: 'string', default: 'mermaid'}, phase: {type: 'string'}, help: {type: 'boolean', short: 'h'}}, io)
  if (!parsed) return 2
  const {values, positionals} = parsed
  if (values.help) {
    io.stdout(graphHelp + '\n')
    return 0
  }
  const format = knownFormat('planlint graph', graphFormats, values.format, io)
  if (format === undefined) return 2
  const paths = (positionals.length > 0 ? positionals : ['.planning']).map((given) => path.resolve(io.cwd, given))
  const absent = paths.find((given) => !fs.existsSync(given))
  if (absent !== undefined) {
    io.stderr(`planlint graph: no such file or folder: ${path.relative(io.cwd, absent) || absent}\n`)
    return 2
  }
  const session = new LintSession({roots: paths.filter((given) => fs.statSync(given).isDirectory())})
  const roots = [...new Set(paths.map((given) => treeRootOf(session, given)))]
  const trees = roots.map((root) => treeView(session.graphOfTree(root), {cwd: io.cwd, phase: values.phase, readText: readPlanText}))
  if (values.phase !== undefined && trees.every((tree) => tree.phases.length === 0)) {
    io.stderr(`planlint graph: no plans of phase \`${values.phase}\`\n`)
    return 2
  }
  io.stdout(graphFormats[format]({version: 1, trees}))
  return 0
}
