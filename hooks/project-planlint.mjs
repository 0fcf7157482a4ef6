// The Claude Code plugin's PostToolUse hook: hands the payload (stdin) to the
// `planlint hook` of the project Claude works in, so the project's own
// planlint version and configuration apply. A project without planlint gets
// silence, and so does any failure here: the hook never blocks a tool call on
// its own account.
import {Buffer} from 'node:buffer'
import {spawnSync} from 'node:child_process'
import fs from 'node:fs'
import {createRequire} from 'node:module'
import path from 'node:path'

const chunks = []
for await (const chunk of process.stdin) chunks.push(chunk)
const payload = Buffer.concat(chunks)

let project = process.env.CLAUDE_PROJECT_DIR
if (!project) {
  try {
    project = JSON.parse(payload.toString('utf8')).cwd
  } catch {
    // Not JSON: the project's `planlint hook` says so on stderr.
  }
}

let bin
try {
  // Resolved as the project resolves it: node_modules of the project or of a folder above it.
  const manifest = createRequire(path.join(project ?? process.cwd(), 'package.json')).resolve('planlint/package.json')
  bin = path.join(path.dirname(manifest), JSON.parse(fs.readFileSync(manifest, 'utf8')).bin.planlint)
} catch {
  process.exit(0)
}
spawnSync(process.execPath, [bin, 'hook'], {input: payload, stdio: ['pipe', 'inherit', 'inherit']})
