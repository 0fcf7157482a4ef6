/** What the CLI knows about where its output goes. */
export interface Terminal {
  env: Record<string, string | undefined>
  isTTY: boolean
}

/**
 * Whether to colour stylish output, as the `NO_COLOR` and `FORCE_COLOR`
 * conventions and Node's own `styleText` decide: `--color` / `--no-color`
 * first, then `FORCE_COLOR` (`0` or `false` turns colour off, any other value
 * on), then `NO_COLOR` (any non-empty value turns it off), `TERM=dumb`, and
 * last whether stdout is a terminal.
 */
export function colorEnabled(flag: boolean | undefined, {env, isTTY}: Terminal): boolean {
  if (flag !== undefined) return flag
  const force = env.FORCE_COLOR
  if (force !== undefined) return force !== '0' && force !== 'false'
  if (env.NO_COLOR) return false
  if (env.TERM === 'dumb') return false
  return isTTY
}

/**
 * Whether the terminal shows OSC 8 hyperlinks (rule ids that open their docs
 * page). `FORCE_HYPERLINK` decides when set; otherwise only a colour terminal,
 * not in CI, that is known to support them: Windows Terminal, iTerm2, WezTerm,
 * VS Code's terminal, Ghostty, kitty, and VTE terminals (GNOME Terminal,
 * Tilix) from VTE 0.50.
 */
export function hyperlinksEnabled(color: boolean, {env, isTTY}: Terminal): boolean {
  if (env.FORCE_HYPERLINK !== undefined) return env.FORCE_HYPERLINK !== '0'
  if (!color || !isTTY || env.CI) return false
  if (env.WT_SESSION || env.KITTY_WINDOW_ID) return true
  if (['iTerm.app', 'WezTerm', 'vscode', 'ghostty'].includes(env.TERM_PROGRAM ?? '')) return true
  return Number(env.VTE_VERSION ?? 0) >= 5000
}

/** How long a run goes before the progress line appears, and how often at most it is rewritten. */
const progressAfterMs = 1000
const progressEveryMs = 100

/**
 * A progress line on stderr for runs that take more than a second in a
 * terminal (as markdownlint-cli2 shows one): `planlint: 812 files linted…`,
 * rewritten in place with `\r` as files are linted and blanked when the run
 * ends, so that nothing stays between the command and its report. Written
 * from the lint itself (`tick` per file), which keeps the event loop busy, so
 * no timer would fire. Nothing when stderr is not a terminal (CI logs, pipes).
 */
export function progressLine(write: (text: string) => void, stderrIsTTY: boolean): {tick: () => void; stop: () => void} {
  const started = Date.now()
  let files = 0
  let writtenAt = 0
  let shown = ''
  return {
    tick() {
      files++
      const now = Date.now()
      if (!stderrIsTTY || now - started < progressAfterMs || now - writtenAt < progressEveryMs) return
      writtenAt = now
      shown = `planlint: ${files} file${files === 1 ? '' : 's'} linted…`
      write(`\r${shown}`)
    },
    stop() {
      if (shown) write(`\r${' '.repeat(shown.length)}\r`)
      shown = ''
    }
  }
}
