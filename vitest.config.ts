import {defineConfig} from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The CLI tests spawn real processes; the corpus test reads 11,000 files.
    testTimeout: 60_000
  }
})
