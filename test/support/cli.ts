import {spawnSync} from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'
import {main} from '../../src/cli/main.js'

/** This repository: the `planlint` package that sandboxes install. */
export const repository = fileURLToPath(new URL('../..', import.meta.url))

/** The built CLI and language server (tests run after `tsc`, as `npm test` does). */
export const cliBin = path.join(repository, 'dist/src/cli/bin.js')
export const languageServerBin = path.join(repository, 'dist/src/lsp/bin.js')
export const remarkBin = path.join(repository, 'node_modules/.bin/remark')
export const eslintBin = path.join(repository, 'node_modules/.bin/eslint')

export interface Run {
  code: number | null
  stdout: string
  stderr: string
}

/** Runs a command to its end, CI-like: no colours, no TTY; `input` is its stdin. */
export function run(command: string, args: string[], cwd: string, input?: string): Run {
  const result = spawnSync(command, args, {cwd, input, encoding: 'utf8', env: {...process.env, NO_COLOR: '1', FORCE_COLOR: '0'}})
  return {code: result.status, stdout: result.stdout, stderr: result.stderr}
}

/** Runs the built planlint CLI in `cwd`. */
export const planlint = (cwd: string, ...args: string[]): Run => run(process.execPath, [cliBin, ...args], cwd)

/** Makes `root` a project that installed planlint: `planlint`, `planlint/eslint` and the like resolve to this repository, and `node_modules/.bin` has its commands, as npm links them. */
export function installPlanlint(root: string): void {
  fs.mkdirSync(path.join(root, 'node_modules/.bin'), {recursive: true})
  fs.symlinkSync(repository, path.join(root, 'node_modules/planlint'), 'dir')
  fs.symlinkSync('../planlint/dist/src/cli/bin.js', path.join(root, 'node_modules/.bin/planlint'))
  fs.symlinkSync('../planlint/dist/src/lsp/bin.js', path.join(root, 'node_modules/.bin/planlint-language-server'))
}

/** Runs a `main` of the CLI in this process, off a terminal and with none of the variables it reads (main's defaults). */
async function runMain(cliMain: typeof main, cwd: string, args: string[]): Promise<Run> {
  let stdout = ''
  let stderr = ''
  const code = await cliMain(args, {cwd, stdout: (text) => (stdout += text), stderr: (text) => (stderr += text), isTTY: false})
  return {code, stdout, stderr}
}

/**
 * Runs the CLI's `main` in this process (each run is a session of its own, as
 * in a fresh process): for the cases where a subprocess adds nothing but
 * start-up time. A few end-to-end tests keep `planlint`.
 */
export const planlintInProcess = (cwd: string, ...args: string[]): Promise<Run> => runMain(main, cwd, args)

/**
 * Runs the built CLI's `main` in this process, as `planlintInProcess` runs the
 * source's: for `--concurrency`, whose worker threads start the built
 * `lint-worker.js` (under vitest the source has no `.js` to start).
 */
export async function builtPlanlintInProcess(cwd: string, ...args: string[]): Promise<Run> {
  const built = (await import(pathToFileURL(path.join(repository, 'dist/src/cli/main.js')).href)) as {main: typeof main}
  return runMain(built.main, cwd, args)
}
