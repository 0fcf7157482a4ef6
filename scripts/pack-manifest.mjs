#!/usr/bin/env node
// `npm pack` / `npm publish` hooks: the packed package.json carries no `prepare` script.
// A git checkout needs `prepare` (npm install builds dist/ with it), but a tarball ships
// dist/ built, and npm warns every installer about a package with an install script it
// has not allowed. `strip` (prepack) saves package.json and drops `scripts.prepare`;
// `restore` (postpack) puts the saved file back.
import fs from 'node:fs'

const manifest = new URL('../package.json', import.meta.url)
const saved = new URL('../.package.json.prepack', import.meta.url)
if (process.argv[2] === 'strip') {
  const text = fs.readFileSync(manifest, 'utf8')
  fs.writeFileSync(saved, text)
  const packageJson = JSON.parse(text)
  delete packageJson.scripts.prepare
  fs.writeFileSync(manifest, JSON.stringify(packageJson, null, 2) + '\n')
} else if (process.argv[2] === 'restore' && fs.existsSync(saved)) {
  fs.renameSync(saved, manifest)
}
