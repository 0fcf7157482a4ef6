import {createRequire} from 'node:module'

const require = createRequire(import.meta.url)

/** planlint's package.json, one folder up from `src/` (tests) or two from `dist/src/` (built). */
function packageJson(): {name: string; version: string} {
  for (const candidate of ['../package.json', '../../package.json']) {
    try {
      const found = require(candidate) as {name: string; version: string}
      if (found.name === 'planlint') return found
    } catch {
      // Not at this level.
    }
  }
  throw new Error('planlint cannot find its own package.json')
}

export const version: string = packageJson().version
