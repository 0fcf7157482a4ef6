import crypto from 'node:crypto'
import type {PlanningConfig} from '../config.js'
import type {PlanGraph, PlanNode} from './graph.js'

/** An argument of a recorded call: a plan by its path, or a plain value. */
type RecordedArgument = string | number | boolean | null | {plan: string}

/**
 * One thing a file's rules asked of the cross-file facts: a `PlanGraph`
 * method with its arguments, a property of the graph, or the planning config
 * (`call: 'config'`), and a digest of the answer.
 */
export interface GraphRead {
  call: string
  args: RecordedArgument[]
  digest: string
}

/** What one file's rules read of its tree, with the digest of the facts of the graph they read it from (when one graph). */
export interface RecordedReads {
  reads: GraphRead[]
  facts?: string
}

const isPlanNode = (value: unknown): value is PlanNode =>
  typeof value === 'object' && value !== null && 'path' in value && 'dependsOn' in value && 'directory' in value

const sha1 = (text: string) => crypto.createHash('sha1').update(text).digest('base64')

/** The digest of each plan of a graph, computed once per graph and kept with it. */
const planDigests = (graph: PlanGraph) => graph.memo('readDigests', () => new WeakMap<PlanNode, string>())

/**
 * A digest of an answer of `graph`: plans (by the digest of all their facts),
 * maps and sets are written out in full, so any fact that differs changes it.
 */
function digestOf(graph: PlanGraph, value: unknown): string {
  const digests = planDigests(graph)
  const text = JSON.stringify(value ?? null, (_key, part: unknown) => {
    if (part instanceof Map || part instanceof Set) return [...part]
    if (!isPlanNode(part)) return part
    let digest = digests.get(part)
    if (digest === undefined) digests.set(part, (digest = sha1(JSON.stringify(part))))
    return `plan:${digest}`
  })
  return sha1(text)
}

/** A digest of all the facts of a graph's plans: while it is the same, every read of the graph has the same answer. */
export function factsDigest(graph: PlanGraph): string {
  return graph.memo('factsDigest', () => digestOf(graph, [graph.root, [...graph.nodes].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))]))
}

/** A digest of a planning config, once per config object. */
const configDigest = (config: PlanningConfig) => sha1(JSON.stringify(config))

const encode = (argument: unknown): RecordedArgument => {
  if (isPlanNode(argument)) return {plan: argument.path}
  if (typeof argument === 'string' || typeof argument === 'number' || typeof argument === 'boolean') return argument
  return null
}

/**
 * What one file's lint reads of its planning tree (`LintSession.lint` with
 * `reads`), so that `--cache` can tell later whether the file's cross-file
 * findings still hold: every call of the graph's methods and every property
 * read, as asked and answered. `graph.memo` is kept per recording, not
 * shared with other files, so that what a memoised helper reads
 * (`impliedWave`) is recorded for each file that needs it.
 */
export class GraphReads {
  readonly reads: GraphRead[] = []
  /** `factsDigest` of the graph the reads were asked of; `undefined` before the first, and when there were several graphs. */
  facts: string | undefined
  private readonly seen = new Set<string>()
  private readonly recorders = new WeakMap<PlanGraph, PlanGraph>()
  private graphs = 0

  /** What was read, for the cache; `undefined` when nothing was. */
  recorded(): RecordedReads | undefined {
    if (this.reads.length === 0) return undefined
    return this.facts === undefined ? {reads: this.reads} : {reads: this.reads, facts: this.facts}
  }

  /** `graph`, recording what is asked of it. */
  graph(graph: PlanGraph): PlanGraph {
    let recorder = this.recorders.get(graph)
    if (!recorder) {
      this.recorders.set(graph, (recorder = this.recorderOf(graph)))
      this.facts = ++this.graphs === 1 ? factsDigest(graph) : undefined
    }
    return recorder
  }

  /** Records that the file's rules read the planning config. */
  config(config: PlanningConfig): void {
    const key = JSON.stringify(['config', []])
    if (this.seen.has(key)) return
    this.seen.add(key)
    this.reads.push({call: 'config', args: [], digest: configDigest(config)})
  }

  private record(graph: PlanGraph, call: string, args: unknown[], answer: unknown): void {
    const encoded = args.map(encode)
    const key = JSON.stringify([call, encoded])
    if (this.seen.has(key)) return
    this.seen.add(key)
    this.reads.push({call, args: encoded, digest: digestOf(graph, answer)})
  }

  private recorderOf(graph: PlanGraph): PlanGraph {
    const memos = new Map<string, unknown>()
    return new Proxy(graph, {
      get: (target, property) => {
        if (property === 'memo') {
          return <T>(key: string, compute: () => T): T => {
            if (!memos.has(key)) memos.set(key, compute())
            return memos.get(key) as T
          }
        }
        const value: unknown = Reflect.get(target, property, target)
        if (typeof property !== 'string') return value
        if (typeof value !== 'function') {
          this.record(target, `.${property}`, [], value)
          return value
        }
        return (...args: unknown[]) => {
          const answer: unknown = value.apply(target, args)
          this.record(target, property, args, answer)
          return answer
        }
      }
    })
  }
}

/**
 * Answers reads again against the facts of a later run and remembers each
 * answer's digest per graph, since the files of a tree ask many of the same
 * things (`.nodes`, one folder's plans). One per run.
 */
export class ReadChecker {
  private readonly digests = new WeakMap<PlanGraph, Map<string, string | undefined>>()
  private readonly configDigests = new WeakMap<PlanningConfig, string>()

  /**
   * Whether every read gets the answer it got when recorded: at once when
   * the graph's facts are those the reads were asked of (`facts`), else by
   * asking each again. `config` gives the file's planning config.
   */
  hold(recorded: RecordedReads, graph: PlanGraph, config: () => PlanningConfig): boolean {
    if (recorded.facts !== undefined && recorded.facts === factsDigest(graph)) return this.configHolds(recorded, config)
    let known = this.digests.get(graph)
    if (!known) this.digests.set(graph, (known = new Map()))
    for (const read of recorded.reads) {
      if (read.call === 'config') continue
      const key = JSON.stringify([read.call, read.args])
      if (!known.has(key)) known.set(key, this.answer(read, graph))
      if (known.get(key) !== read.digest) return false
    }
    return this.configHolds(recorded, config)
  }

  /** Whether the planning config the reads saw is the same (the graph's facts being known to be). */
  configHolds(recorded: RecordedReads, config: () => PlanningConfig): boolean {
    const read = recorded.reads.find((entry) => entry.call === 'config')
    if (!read) return true
    const current = config()
    let digest = this.configDigests.get(current)
    if (digest === undefined) this.configDigests.set(current, (digest = configDigest(current)))
    return digest === read.digest
  }

  private answer(read: GraphRead, graph: PlanGraph): string | undefined {
    if (read.call.startsWith('.')) return digestOf(graph, Reflect.get(graph, read.call.slice(1)))
    const args: unknown[] = []
    for (const argument of read.args) {
      if (argument !== null && typeof argument === 'object') {
        const plan = graph.byPath.get(argument.plan)
        // The plan is gone: whatever was asked about it has another answer now.
        if (!plan) return undefined
        args.push(plan)
      } else args.push(argument ?? undefined)
    }
    const method: unknown = Reflect.get(graph, read.call)
    if (typeof method !== 'function' || read.call === 'memo') return undefined
    return digestOf(graph, method.apply(graph, args))
  }
}
