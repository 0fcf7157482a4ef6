#!/usr/bin/env node
// Makes the package's `bin` files executable after `tsc` writes them (tsc
// writes new files without the execute bit, and npm sets it only on the bins
// of installed dependencies, never on the project's own): without this,
// `npx planlint` in a fresh clone fails with "Permission denied".
import fs from 'node:fs'

const packageJson = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
for (const file of Object.values(packageJson.bin)) {
  const target = new URL(`../${file}`, import.meta.url)
  fs.chmodSync(target, fs.statSync(target).mode | 0o111)
}
