import {spawnSync} from 'node:child_process'
import {Window} from 'happy-dom'
import {runGraph} from '../../src/cli/graph.js'
import type {Run} from './cli.js'

/** `planlint graph` in this process (a session of its own, as in a fresh process). */
export async function graphInProcess(cwd: string, ...args: string[]): Promise<Run> {
  let stdout = ''
  let stderr = ''
  const code = await runGraph(args, {cwd, stdout: (text) => (stdout += text), stderr: (text) => (stderr += text), isTTY: false})
  return {code, stdout, stderr}
}

type Mermaid = typeof import('mermaid').default

let loaded: Promise<Mermaid> | undefined

/**
 * Mermaid's own parser. Mermaid sanitises labels with DOMPurify, which needs a
 * `window`; happy-dom's is the lightest DOM that gives it one (Mermaid reads
 * the global when its module loads, so it is imported after).
 */
export function mermaidParser(): Promise<Mermaid> {
  loaded ??= (async () => {
    const window = new Window()
    Object.assign(globalThis, {window, document: window.document})
    return (await import('mermaid')).default
  })()
  return loaded
}

export const graphvizInstalled = spawnSync('dot', ['-V']).status === 0

/** Graphviz's `dot -Tsvg` on a DOT text: the SVG, or what dot said. */
export function renderDot(dot: string): {status: number | null; svg: string; stderr: string} {
  const result = spawnSync('dot', ['-Tsvg'], {input: dot, encoding: 'utf8'})
  return {status: result.status, svg: result.stdout, stderr: result.stderr}
}
