import {createRequire} from 'node:module'
import type WorkerThreads from 'node:worker_threads'
import type {Worker} from 'node:worker_threads'

// Required when workers start (and `os` for `auto`): a run without `--concurrency`, the usual one, loads neither.
const require = createRequire(import.meta.url)
const workerThreads = () => require('node:worker_threads') as typeof WorkerThreads

/** `--concurrency`: a number of worker threads, `auto`, or `off` (lint in the main thread), as in ESLint. */
export type Concurrency = number | 'auto' | 'off'

/** `--concurrency`'s value, or `undefined` when it is none of a positive whole number, `auto` and `off`. */
export function parseConcurrency(value: string): Concurrency | undefined {
  if (value === 'auto' || value === 'off') return value
  return /^[1-9]\d*$/.test(value) ? Number(value) : undefined
}

/** Files one worker should have at least, for `auto` (ESLint's figure): fewer, and starting a worker costs more than it saves. */
const filesPerWorker = 50

/**
 * How many worker threads lint `files` files: none for `off`, or when one
 * would do; for `auto`, as ESLint chooses, half the cores, and no more than
 * one per 50 files.
 */
export function workerCount(concurrency: Concurrency, files: number): number {
  const count = concurrency === 'off' ? 1 : concurrency === 'auto' ? Math.min((require('node:os') as typeof import('node:os')).availableParallelism() >> 1, Math.ceil(files / filesPerWorker)) : concurrency
  return count >= 2 && files >= 2 ? Math.min(count, files) : 0
}

/**
 * Splits the files to lint into batches for `workers` workers: each batch
 * holds files of one planning tree, so that a worker reads a tree's graph
 * once for the batch; a tree larger than a worker's share is cut into
 * pieces (each worker that gets one reads its graph). Batches come largest
 * first, so that the workers end together. Files keep their order in each.
 */
export function batchesOf<T>(files: readonly T[], treeOf: (file: T) => string, workers: number): T[][] {
  const byTree = new Map<string, T[]>()
  for (const file of files) {
    const tree = treeOf(file)
    const list = byTree.get(tree)
    if (list) list.push(file)
    else byTree.set(tree, [file])
  }
  // Four pieces a worker, so that a slow piece does not keep the others waiting.
  const share = Math.max(1, Math.ceil(files.length / (workers * 4)))
  const batches: T[][] = []
  for (const list of byTree.values()) {
    const pieces = Math.ceil(list.length / share)
    const size = Math.ceil(list.length / pieces)
    for (let start = 0; start < list.length; start += size) batches.push(list.slice(start, start + size))
  }
  return batches.sort((a, b) => b.length - a.length)
}

/** What the main thread sends a worker: a batch to lint, by number. */
export interface BatchMessage<Task> {
  batch: number
  tasks: Task[]
}

/** What a worker answers: the results of a batch, in its order, or why it failed. */
export type BatchAnswer<Result> = {batch: number; results: Result[]} | {batch: number; error: string}

/**
 * Runs batches on `workers` worker threads of `workerFile`, each started
 * with `workerData`, handing the next batch to whichever worker is free;
 * resolves with every batch's results, by batch. A worker that fails fails
 * the run.
 */
export function runInWorkers<Task, Result>(workerFile: URL, workerData: unknown, batches: Task[][], workers: number): Promise<Result[][]> {
  const results: Result[][] = new Array<Result[]>(batches.length)
  let next = 0
  let done = 0
  return new Promise((resolve, reject) => {
    const started: Worker[] = []
    const stopAll = () => Promise.all(started.map((worker) => worker.terminate()))
    const fail = (error: Error) => {
      void stopAll()
      reject(error)
    }
    const give = (worker: Worker) => {
      if (next >= batches.length) return void worker.postMessage({stop: true})
      const batch = next++
      worker.postMessage({batch, tasks: batches[batch]} satisfies BatchMessage<Task>)
    }
    if (batches.length === 0) return resolve([])
    for (let index = 0; index < Math.min(workers, batches.length); index++) {
      const worker = new (workerThreads().Worker)(workerFile, {workerData})
      started.push(worker)
      worker.on('message', (answer: BatchAnswer<Result>) => {
        if ('error' in answer) return fail(new Error(answer.error))
        results[answer.batch] = answer.results
        if (++done === batches.length) resolve(results)
        give(worker)
      })
      worker.on('error', fail)
      worker.on('exit', (code) => {
        if (code !== 0 && done < batches.length) fail(new Error(`a lint worker stopped with exit code ${code}`))
      })
      give(worker)
    }
  })
}

/** The worker's side of `runInWorkers`: lints each batch it is given with `lintBatch`, until told to stop. */
export function serveBatches<Task, Result>(lintBatch: (tasks: Task[]) => Promise<Result[]> | Result[]): void {
  const port = workerThreads().parentPort
  if (!port) throw new Error('serveBatches runs in a worker thread')
  port.on('message', (message: BatchMessage<Task> | {stop: true}) => {
    if ('stop' in message) return port.close()
    Promise.resolve()
      .then(() => lintBatch(message.tasks))
      .then(
        (results) => port.postMessage({batch: message.batch, results} satisfies BatchAnswer<Result>),
        (error: unknown) => port.postMessage({batch: message.batch, error: error instanceof Error ? (error.stack ?? error.message) : String(error)} satisfies BatchAnswer<Result>)
      )
  })
}
