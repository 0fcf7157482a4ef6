import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {formatNames, presetNames} from '../src/cli/help.js'
import {presets} from '../src/presets/index.js'
import {version} from '../src/version.js'
import {repository, run} from './support/cli.js'

/**
 * Start-up: `--help` and `--version` load only what they print. The CLI is
 * copied without its rules, reporters or the rest of the CLI (only bin, help
 * and version, and package.json), so importing any of those would fail.
 */
describe('planlint --help and --version', () => {
  let root: string
  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'planlint-startup-'))
    for (const file of ['dist/src/cli/bin.js', 'dist/src/cli/help.js', 'dist/src/version.js', 'package.json']) {
      fs.mkdirSync(path.dirname(path.join(root, file)), {recursive: true})
      fs.copyFileSync(path.join(repository, file), path.join(root, file))
    }
  })
  afterAll(() => fs.rmSync(root, {recursive: true, force: true}))

  it.each(['--version', '-v'])('%s prints the version without loading the rules', (flag) => {
    const result = run(process.execPath, [path.join(root, 'dist/src/cli/bin.js'), flag], root)
    expect([result.code, result.stdout, result.stderr]).toEqual([0, `${version}\n`, ''])
  })

  it.each(['--help', '-h'])('%s prints the usage without loading the rules', (flag) => {
    const result = run(process.execPath, [path.join(root, 'dist/src/cli/bin.js'), flag], root)
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(/^Usage: planlint \[options\] \[paths\.\.\.\]/)
    expect(result.stdout).toContain(`--preset <name>       use a preset (${Object.keys(presets).join(', ')})`)
  })

  it('lists the presets there are (the help names them without loading them)', () => {
    expect([...presetNames]).toEqual(Object.keys(presets))
    expect(formatNames).toContain('stylish')
  })
})
