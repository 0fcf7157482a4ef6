import remarkFrontmatter from 'remark-frontmatter'
import type {Preset} from 'unified'
import {rules} from '../../rules/index.js'

/** The GSD conventions: every rule that holds for any plan, at its default severity. */
const recommended: Preset = {
  plugins: [[remarkFrontmatter, ['yaml']], ...Object.values(rules)]
}

export default recommended
