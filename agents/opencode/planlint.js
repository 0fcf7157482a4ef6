// planlint for OpenCode: copy this file to `.opencode/plugin/planlint.js`.
// OpenCode plugins are JavaScript, not command hooks: after each `write` or
// `edit`, this runs the project's own `planlint hook` on the written file and
// appends what it found to the tool's output, which the model reads next.
// A project without planlint installed gets nothing.
import {spawnSync} from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

export const Planlint = async ({directory}) => ({
  'tool.execute.after': async (input, output) => {
    const filePath = input.args?.filePath ?? output.metadata?.filepath
    if ((input.tool !== 'write' && input.tool !== 'edit') || typeof filePath !== 'string') return
    const bin = path.join(directory, 'node_modules', '.bin', 'planlint')
    if (!fs.existsSync(bin)) return
    const payload = JSON.stringify({cwd: directory, tool_input: {file_path: filePath}})
    const answer = spawnSync(bin, ['hook'], {cwd: directory, input: payload, encoding: 'utf8'}).stdout?.trim()
    if (!answer) return
    const response = JSON.parse(answer)
    const found = response.reason ?? response.hookSpecificOutput?.additionalContext
    if (found) output.output = `${output.output ?? ''}\n\n${found}`
  }
})
