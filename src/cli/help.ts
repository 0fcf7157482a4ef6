// Only what `--help` needs: `planlint --help` and `--version` print without loading the rules or the reporters.

/** The reporters' names (main.ts's \`formats\` has exactly these keys). */
export const formatNames = ['stylish', 'json', 'sarif', 'github'] as const

/** The presets' names (test/cli-startup.test.ts keeps them equal to \`presets\`). */
export const presetNames = ['recommended', 'gsd', 'pbr'] as const

export const help = `Usage: planlint [options] [paths...]
       planlint hook < payload.json
       planlint graph [--format mermaid|dot|json] [--phase <phase>] [paths...]

Lints GSD / Plan-Build-Run planning documents (default path: .planning).
\`planlint hook\` lints the file named in a coding agent's post-write hook
payload (stdin) and answers in the hook's JSON (see docs/agent-hooks.md).
\`planlint graph\` draws the plan graph (see \`planlint graph --help\`, docs/graph.md).

Options:
  --format <name>       ${formatNames.join(', ')} (default: stylish)
  --max-warnings <n>    exit 1 when there are more than n warnings
  --quiet               report errors only
  --preset <name>       use a preset (${presetNames.join(', ')}) instead of a .remarkrc
  --config <file>       use this remark config file instead of looking for one
  --output-file <file>  write the report to this file instead of stdout
  --color, --no-color   colours in stylish output (default: on a terminal, unless
                        NO_COLOR is set; FORCE_COLOR forces them)
  --no-warn-ignored     skip named files that a .remarkignore ignores, silently
                        (for pre-commit, lint-staged and hooks, which name staged files)
  --no-error-on-unmatched-pattern
                        exit 0 when a path or glob matches no file
  --print-config <file> print the configuration that applies to a file, and exit
  --rules               list planlint's rules, and exit
  --fix                 apply the fixes, then report what remains
  --fix-dry-run         print the fixes as a unified diff; write nothing
  --rule <id>           with --fix: apply only this rule's fixes (repeatable)
  --include-executed    also report on plans that have run (have a SUMMARY), are superseded
                        or sit in a finished milestone's archive (milestones/v*-phases/)
  --max-file-size <n>   skip files over n bytes (or 512KB, 8MB) with one message (default: 5MB)
  --cache               reuse the findings of files (and plans) that did not change since the last --cache run
  --cache-location <p>  the cache file, or a folder for it (default: .planlintcache)
  --cache-strategy <s>  metadata (time and size, the default) or content (a hash of the bytes)
  --concurrency <n>     lint in n worker threads, auto, or off (the default)
  -h, --help            show this help
  -v, --version         show the version

Exit codes: 0 clean, 1 lint errors (or too many warnings), 2 usage error or internal failure.`
