import fs from 'node:fs'
import path from 'node:path'

/**
 * A set of keys a test has already checked, kept in a JSON file (under
 * node_modules/.cache) whose name says what the checks depend on: `save`
 * writes it back, only when it has grown.
 */
export function cachedSet(file: string): {known: Set<string>; save: () => void} {
  const known = new Set<string>(fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as string[]) : [])
  const size = known.size
  return {
    known,
    save: () => {
      if (known.size === size) return
      fs.mkdirSync(path.dirname(file), {recursive: true})
      fs.writeFileSync(file, JSON.stringify([...known].sort()))
    }
  }
}
