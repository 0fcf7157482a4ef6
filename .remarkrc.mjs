// The project's own remark configuration: planlint's recommended preset.
import planlint from './dist/src/index.js'

export default {plugins: [planlint]}
