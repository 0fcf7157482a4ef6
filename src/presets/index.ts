import gsd from './gsd.js'
import pbr from './pbr.js'
import recommended from './recommended.js'

export const presets = {recommended, gsd, pbr}

export type PresetName = keyof typeof presets

export function isPresetName(name: string): name is PresetName {
  return Object.hasOwn(presets, name)
}
