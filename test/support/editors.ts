import {spawnSync} from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import {repository} from './cli.js'

/** The editor drivers (Lua, Emacs Lisp) that the editor tests run. */
export const editorFixtures = path.join(repository, 'test/fixtures/editors')

export const installed = (command: string) => spawnSync(command, ['--version']).status === 0

/** The fenced block of `language` under `heading` in docs/editors.md: the tests run the setups as written. */
export function recipe(heading: string, language: string): string {
  const guide = fs.readFileSync(path.join(repository, 'docs/editors.md'), 'utf8')
  const section = guide.slice(guide.indexOf(`## ${heading}`))
  const start = section.indexOf('```' + language + '\n') + language.length + 4
  return section.slice(start, section.indexOf('\n```', start)) + '\n'
}
