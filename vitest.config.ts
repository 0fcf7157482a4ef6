import os from 'node:os'
import {defineConfig} from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The CLI tests spawn real processes; a corpus part reads thousands of files.
    testTimeout: 60_000,
    // And the hooks that start a language server or write trees (vitest's default is 10 s, which a
    // loaded 2-core machine exceeds).
    hookTimeout: 60_000,
    // vitest's default is one worker fewer than the cores, one on a 2-core machine; the test
    // files that wait on real processes leave a core idle, and the corpus is split in
    // test/corpus/part-N.test.ts so that every worker takes a share of it.
    maxWorkers: Math.max(2, os.availableParallelism()),
    // A worker runs its test files in one module graph instead of importing remark, ESLint and
    // the rules afresh for each (about a second of CPU a file). src/ keeps no module-level
    // mutable state (test/module-state.test.ts), so a test file cannot see another's.
    isolate: false
  }
})
