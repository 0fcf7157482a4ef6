import type {GraphJson, PlanView, TreeView} from './render-model.js'

/**
 * `planlint graph` as Mermaid and Graphviz DOT (docs/graph.md). Arrows point
 * the way work flows: from the plan waited for to the plan that waits. Every
 * mark is said in the label too (`✓ executed`, `⚠ wave 1, implied 2`), so it
 * reads without colours.
 */

/** The lines of a plan's label: id and title, then its marks. */
function planLines(plan: PlanView): string[] {
  const marks: string[] = []
  if (plan.summaryOnly) marks.push('✓ executed (plan file removed)')
  else if (plan.state === 'executed') marks.push('✓ executed')
  else if (plan.state === 'superseded') marks.push('⊘ superseded')
  else if (plan.state === 'archived') marks.push('▣ archived')
  if (plan.checkpoint) marks.push('⚑ checkpoint')
  if (plan.cycle) marks.push('⟳ on a dependency cycle')
  if (plan.waveMismatch) marks.push(plan.impliedWave === null ? `⚠ wave ${plan.declaredWave} is out of order` : `⚠ wave ${plan.declaredWave}, implied ${plan.impliedWave}`)
  return [plan.title === null ? plan.id : `${plan.id} · ${plan.title}`, ...marks]
}

/** The style classes of a plan, in the order they are applied (later ones win). */
function planClasses(plan: PlanView): string[] {
  const classes: string[] = []
  if (plan.state !== 'pending') classes.push(plan.state)
  if (plan.checkpoint) classes.push('checkpoint')
  if (plan.waveMismatch) classes.push('waveMismatch')
  if (plan.cycle) classes.push('cycle')
  return classes
}

const phaseTitle = (tree: TreeView, directory: string, several: boolean) => {
  const inside = directory.startsWith(tree.root + '/') ? directory.slice(tree.root.length + 1) : directory
  return several ? `${tree.root}: ${inside}` : inside
}

const waveTitle = (wave: number | null) => (wave === null ? 'no wave (cycle or unresolved entry)' : `wave ${wave}`)

/** Node ids of the drawing: `p1`, `p2`… for plans, `m1`… for missing nodes, whatever the plans are called. */
function nodeIds(graph: GraphJson): Map<TreeView, Map<string, string>> {
  const ids = new Map<TreeView, Map<string, string>>()
  let plans = 0
  let missing = 0
  for (const tree of graph.trees) {
    const own = new Map<string, string>()
    for (const phase of tree.phases) for (const wave of phase.waves) for (const plan of wave.plans) own.set(plan.key, `p${++plans}`)
    for (const node of tree.missing) own.set(node.key, `m${++missing}`)
    ids.set(tree, own)
  }
  return ids
}

/**
 * Text for a quoted Mermaid label: Mermaid's `#code;` entities for what would
 * end the string or be read as HTML or Markdown, and one line (labels break
 * only where `<br/>` says).
 */
export function mermaidText(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').replace(/["#&<>`\\]/g, (character) => `#${character.charCodeAt(0)};`)
}

const mermaidClasses = [
  'classDef executed fill:#e6f4ea,stroke:#2e7d32,color:#1b5e20',
  'classDef superseded fill:#f1f1f1,stroke:#9e9e9e,stroke-dasharray:4 3,color:#757575',
  'classDef archived fill:#f1f1f1,stroke:#9e9e9e,color:#616161',
  'classDef checkpoint stroke:#1565c0,stroke-width:3px',
  'classDef waveMismatch fill:#fff4e5,stroke:#ef6c00,stroke-width:2px',
  'classDef cycle fill:#fdecea,stroke:#c62828,stroke-width:3px',
  'classDef missing fill:#ffffff,stroke:#c62828,stroke-dasharray:5 5,color:#c62828'
]

export function toMermaid(graph: GraphJson): string {
  const ids = nodeIds(graph)
  const lines = ['flowchart TB']
  const classes: string[] = []
  const links: string[] = []
  const cycleLinks: number[] = []
  const several = graph.trees.length > 1
  let groups = 0
  for (const tree of graph.trees) {
    const id = (key: string) => ids.get(tree)!.get(key)!
    for (const phase of tree.phases) {
      lines.push(`  subgraph g${++groups}["${mermaidText(phaseTitle(tree, phase.directory, several))}"]`)
      for (const wave of phase.waves) {
        lines.push(`    subgraph g${++groups}["${mermaidText(waveTitle(wave.wave))}"]`)
        for (const plan of wave.plans) {
          const label = planLines(plan).map(mermaidText).join('<br/>')
          // A checkpoint plan is a hexagon: it stops for a person.
          lines.push(plan.checkpoint ? `      ${id(plan.key)}{{"${label}"}}` : `      ${id(plan.key)}["${label}"]`)
          for (const name of planClasses(plan)) classes.push(`  class ${id(plan.key)} ${name}`)
        }
        lines.push('    end')
      }
      lines.push('  end')
    }
    for (const node of tree.missing) {
      lines.push(`  ${id(node.key)}["${mermaidText(`missing: ${node.entry}`)}<br/>${mermaidText(node.reason)}"]`)
      classes.push(`  class ${id(node.key)} missing`)
    }
    for (const edge of tree.edges) {
      const missing = edge.to.startsWith('missing:')
      if (edge.cycle) cycleLinks.push(links.length)
      links.push(`  ${id(edge.to)} ${edge.cycle ? '==>' : missing ? '-.->' : '-->'} ${id(edge.from)}`)
    }
  }
  if (graph.trees.every((tree) => tree.phases.length === 0 && tree.missing.length === 0)) lines.push('  empty["no plans"]')
  lines.push(...links, ...mermaidClasses.map((line) => `  ${line}`), ...classes)
  if (cycleLinks.length > 0) lines.push(`  linkStyle ${cycleLinks.join(',')} stroke:#c62828,stroke-width:3px`)
  return lines.join('\n') + '\n'
}

/** A double-quoted DOT string; `\n` breaks its lines when it is a label (`lines`). */
export function dotString(lines: string[]): string {
  // eslint-disable-next-line no-control-regex
  const one = (text: string) => text.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').replace(/["\\]/g, (character) => `\\${character}`)
  return `"${lines.map(one).join('\\n')}"`
}

const dotStyles: Record<string, string> = {
  executed: 'fillcolor="#e6f4ea", color="#2e7d32", fontcolor="#1b5e20"',
  superseded: 'fillcolor="#f1f1f1", color="#9e9e9e", fontcolor="#757575", style="rounded,filled,dashed"',
  archived: 'fillcolor="#f1f1f1", color="#9e9e9e", fontcolor="#616161"',
  waveMismatch: 'fillcolor="#fff4e5", color="#ef6c00", penwidth=2',
  cycle: 'fillcolor="#fdecea", color="#c62828", penwidth=3'
}

export function toDot(graph: GraphJson): string {
  const ids = nodeIds(graph)
  const lines = ['digraph planlint {', '  rankdir=TB;', '  node [shape=box, style="rounded,filled", fillcolor="#ffffff", fontname="Helvetica", fontsize=11];', '  edge [color="#555555"];']
  const several = graph.trees.length > 1
  let clusters = 0
  for (const tree of graph.trees) {
    const id = (key: string) => ids.get(tree)!.get(key)!
    for (const phase of tree.phases) {
      lines.push(`  subgraph cluster_${++clusters} {`, `    label=${dotString([phaseTitle(tree, phase.directory, several)])};`, '    style="rounded"; color="#90a4ae"; fontname="Helvetica";')
      for (const wave of phase.waves) {
        for (const plan of wave.plans) {
          const style = planClasses(plan).flatMap((name) => dotStyles[name] ?? [])
          // A checkpoint plan is a hexagon: it stops for a person.
          const attributes = [`label=${dotString([...planLines(plan), waveTitle(wave.wave)])}`, ...(plan.checkpoint ? ['shape=hexagon'] : []), ...style]
          lines.push(`    ${id(plan.key)} [${attributes.join(', ')}];`)
        }
        if (wave.wave !== null) lines.push(`    { rank=same; ${wave.plans.map((plan) => id(plan.key)).join('; ')}; }`)
      }
      lines.push('  }')
    }
    for (const node of tree.missing) {
      lines.push(`  ${id(node.key)} [label=${dotString([`missing: ${node.entry}`, node.reason])}, style="dashed", color="#c62828", fontcolor="#c62828"];`)
    }
    for (const edge of tree.edges) {
      const style = edge.cycle ? ' [color="#c62828", penwidth=2.5]' : edge.to.startsWith('missing:') ? ' [style=dashed, color="#c62828"]' : ''
      lines.push(`  ${id(edge.to)} -> ${id(edge.from)}${style};`)
    }
  }
  lines.push('}')
  return lines.join('\n') + '\n'
}
