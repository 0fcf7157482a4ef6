import {parseArgs, type ParseArgsConfig} from 'node:util'
import type {CliIo} from './main.js'

type OptionsConfig = NonNullable<ParseArgsConfig['options']>

/** What `parseArgs` gives for a command's options, paths allowed. */
type CommandLine<Options extends OptionsConfig> = ReturnType<typeof parseArgs<{args: string[]; allowPositionals: true; options: Options}>>

/** A command's options and paths, or `undefined` when they do not parse, with `parseArgs`' reason printed after `command` (exit 2). */
export function commandLine<const Options extends OptionsConfig>(command: string, argv: string[], options: Options, io: CliIo): CommandLine<Options> | undefined {
  try {
    return parseArgs({args: argv, allowPositionals: true, options})
  } catch (error) {
    io.stderr(`${command}: ${(error as Error).message}\n`)
    return undefined
  }
}

/** The `--format` given when `formats` has it, else `undefined`, with the formats known printed after `command` (exit 2). */
export function knownFormat<Formats extends object>(command: string, formats: Formats, given: string, io: CliIo): keyof Formats | undefined {
  if (Object.hasOwn(formats, given)) return given as keyof Formats
  io.stderr(`${command}: unknown format \`${given}\` (known: ${Object.keys(formats).join(', ')})\n`)
  return undefined
}
