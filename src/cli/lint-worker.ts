// A worker thread of `--concurrency` (see src/cli/concurrency.ts): lints the batches of files the run hands it.
import {workerData} from 'node:worker_threads'
import {workerLinter, type WorkerLintOptions, type WorkerLintedFile} from '../lint.js'
import {serveBatches} from './concurrency.js'

const lintFile = workerLinter(workerData as WorkerLintOptions)

serveBatches<string, WorkerLintedFile>(async (paths) => {
  const files: WorkerLintedFile[] = []
  // One file after another: the files of a batch share its tree's graph, built by the first.
  for (const filePath of paths) files.push(await lintFile(filePath))
  return files
})
