#!/usr/bin/env node
import type {CliIo} from './main.js'

const argv = process.argv.slice(2)
const io: CliIo = {
  cwd: process.cwd(),
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  isTTY: Boolean(process.stdout.isTTY),
  stderrIsTTY: Boolean(process.stderr.isTTY),
  env: process.env
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

/** `--help` and `--version` alone load only what they print, not the rules and reporters the CLI imports. */
async function printOnly(flag: string | undefined): Promise<string | undefined> {
  if (argv.length !== 1) return undefined
  if (flag === '--help' || flag === '-h') return (await import('./help.js')).help
  if (flag === '--version' || flag === '-v') return (await import('../version.js')).version
  return undefined
}

/** `planlint hook`: its usage for `--help`, read before stdin (at a terminal no payload would ever come), else the answer to the payload. */
async function hook(args: string[]): Promise<number> {
  const {hookHelp, runHook} = await import('./hook.js')
  if (args.length === 1 && (args[0] === '--help' || args[0] === '-h')) {
    io.stdout(hookHelp + '\n')
    return 0
  }
  return runHook(await readStdin(), io)
}

const printed = await printOnly(argv[0])
if (printed !== undefined) io.stdout(printed + '\n')
// `planlint hook` answers an agent's post-write hook: it skips loading the CLI and its reporters.
else
  process.exitCode =
    argv[0] === 'hook'
      ? await hook(argv.slice(1))
      : argv[0] === 'graph'
        ? await (await import('./graph.js')).runGraph(argv.slice(1), io)
        : await (await import('./main.js')).main(argv, io)
