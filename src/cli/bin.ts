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

// `planlint hook` answers an agent's post-write hook: it skips loading the CLI and its reporters.
process.exitCode =
  argv[0] === 'hook'
    ? await (await import('./hook.js')).runHook(await readStdin(), io)
    : await (await import('./main.js')).main(argv, io)
