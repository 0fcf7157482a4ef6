#!/usr/bin/env node
// Maintainer check: validates planlint's SARIF for the example plans with Microsoft's
// `sarif-multitool validate` and its GitHub rules (`--rule-kind Gh;Sarif`), as
// code scanning's ingestion does. Exits 1 when the validator reports any error.
// The multitool is a .NET program shipped on npm; install it outside the project:
//   npm install --prefix /tmp/sarif-multitool @microsoft/sarif-multitool
//   node scripts/sarif-validate.mjs /tmp/sarif-multitool
// (npm blocks its postinstall `chmod`; this script sets the execute bit itself.)
import {spawnSync} from 'node:child_process'
import fs from 'node:fs'
import {createRequire} from 'node:module'
import os from 'node:os'
import path from 'node:path'

const prefix = path.resolve(process.argv[2] ?? '.')
const platform = {linux: 'linux', darwin: 'darwin', win32: 'win32'}[process.platform]
const manifest = createRequire(path.join(prefix, 'package.json')).resolve(`@microsoft/sarif-multitool-${platform}/package.json`)
const multitool = path.join(path.dirname(manifest), process.platform === 'win32' ? 'Sarif.Multitool.exe' : 'Sarif.Multitool')
fs.chmodSync(multitool, fs.statSync(multitool).mode | 0o100)

const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'planlint-sarif-'))
const log = path.join(folder, 'planlint.sarif')
const cli = new URL('../dist/src/cli/bin.js', import.meta.url)
const lint = spawnSync(process.execPath, [cli.pathname, '--format', 'sarif', '--output-file', log, 'examples/.planning'], {stdio: 'inherit'})
if (lint.status !== 1) throw new Error(`planlint exited ${lint.status} on the examples (expected 1: they have errors on purpose)`)
const validate = spawnSync(multitool, ['validate', '--rule-kind', 'Gh;Sarif', '--log', 'ForceOverwrite', '-o', path.join(folder, 'validation.sarif'), 'planlint.sarif'], {
  cwd: folder,
  encoding: 'utf8'
})
process.stdout.write(validate.stdout)
const errors = validate.stdout.split('\n').filter((line) => /: error /.test(line))
fs.rmSync(folder, {recursive: true, force: true})
console.log(errors.length === 0 ? 'sarif-multitool: no errors' : `sarif-multitool: ${errors.length} errors`)
process.exitCode = errors.length === 0 && validate.status === 0 ? 0 : 1
