import path from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {configLoader, engineConfigLoader, lintRulesOf, onlyPlanlintPlugins, pluginEntry, presetConfig, type FileConfig} from '../src/cli/configuration.js'
import type {PresetName} from '../src/presets/index.js'
import {removeTree, writeTree} from './support/tree.js'

let sandbox: string | undefined
afterEach(() => sandbox && removeTree(sandbox))

/** What of a configuration the run reads: each plugin (by identity) with its setting, the settings, and where it comes from. */
const shape = (config: FileConfig) => ({source: config.source, settings: config.settings, plugins: config.plugins.map(({name, ruleId, setting, plugin}) => ({name, ruleId, setting, plugin}))})

describe('the configuration of a file with no configuration file above it', () => {
  it.each([undefined, 'recommended', 'gsd', 'pbr'] as const)('is what unified-engine loads, without unified-engine (--preset %s)', async (preset?: PresetName) => {
    sandbox = writeTree([{path: '.planning/phases/01-a/01-01-PLAN.md', text: '# Plan\n'}], 'planlint-configuration-')
    const file = path.join(sandbox, '.planning/phases/01-a/01-01-PLAN.md')
    const options = {cwd: sandbox, preset}
    const fast = await configLoader(options)(file)
    const engine = await (await engineConfigLoader(options))(file)
    expect(fast.ownPreset).toBe(true)
    expect(shape(fast)).toEqual(shape(engine))
    expect(lintRulesOf(fast)).toEqual(lintRulesOf(engine))
  })

  it('comes from unified-engine as soon as a .remarkrc or a package.json#remarkConfig is above it', async () => {
    sandbox = writeTree(
      [
        {path: 'package.json', text: JSON.stringify({name: 'x', remarkConfig: {plugins: []}})},
        {path: '.planning/phases/01-a/01-01-PLAN.md', text: '# Plan\n'}
      ],
      'planlint-configuration-'
    )
    const config = await configLoader({cwd: sandbox})(path.join(sandbox, '.planning/phases/01-a/01-01-PLAN.md'))
    expect(config.ownPreset).toBeUndefined()
    expect(config.source).toBe('package.json')
    expect(config.plugins).toEqual([])
  })
})

describe('which configurations the language server lints without remark (onlyPlanlintPlugins)', () => {
  const otherRule = function remarkLintNoDuplicateHeadings() {}
  it.each(['recommended', 'gsd', 'pbr'] as const)('every preset (%s): its rules, planlint:suppression and remark-frontmatter', (preset) => {
    expect(onlyPlanlintPlugins(presetConfig(preset))).toBe(true)
  })

  it('not one with a plugin of another package, unless it is turned off', () => {
    const config = presetConfig('recommended')
    expect(onlyPlanlintPlugins({...config, plugins: [...config.plugins, pluginEntry(otherRule, undefined)]})).toBe(false)
    expect(onlyPlanlintPlugins({...config, plugins: [...config.plugins, pluginEntry(otherRule, false)]})).toBe(true)
  })
})
