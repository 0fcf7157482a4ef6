import recommended from './recommended.js'

export const presets = {recommended}

export type PresetName = keyof typeof presets

export function isPresetName(name: string): name is PresetName {
  return Object.hasOwn(presets, name)
}
