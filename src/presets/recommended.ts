import remarkFrontmatter from 'remark-frontmatter'
import type {Preset} from 'unified'
import {rules} from '../../rules/index.js'
import suppressionCheck from '../suppression-check.js'

/**
 * The GSD conventions: every rule that holds for any plan, at its default
 * severity. The suppression check comes last: it reports the disable comments
 * that no rule before it used.
 */
const recommended: Preset = {
  plugins: [[remarkFrontmatter, ['yaml']], ...Object.values(rules), suppressionCheck]
}

export default recommended
