import {createRequire} from 'node:module'
import type {ErrorObject, ValidateFunction} from 'ajv'

/** A JSON Schema (draft-04 to 2020-12 alike: only `type`, `properties`, `additionalProperties` and `items`). */
export type JsonSchema = Record<string, unknown>

/**
 * The schema of one option, read off its default: a number, string or
 * boolean is that type; a list is a list of its items' type, and an empty list
 * a list of strings (rules whose empty default lists something else declare
 * its schema); an object whose values are all lists of strings (or all
 * strings) maps any key to such values.
 */
function schemaOfDefault(value: unknown): JsonSchema {
  if (Array.isArray(value)) {
    const types = new Set(value.map((item) => typeof item))
    const itemType = types.size === 0 ? 'string' : types.size === 1 ? [...types][0] : undefined
    return itemType && ['string', 'number', 'boolean'].includes(itemType) ? {type: 'array', items: {type: itemType}} : {type: 'array'}
  }
  if (value !== null && typeof value === 'object') {
    const values = Object.values(value)
    const lists = values.every((item) => Array.isArray(item) && item.every((entry) => typeof entry === 'string'))
    if (values.length > 0 && lists) return {type: 'object', additionalProperties: {type: 'array', items: {type: 'string'}}}
    if (values.length > 0 && values.every((item) => typeof item === 'string')) return {type: 'object', additionalProperties: {type: 'string'}}
    return {type: 'object'}
  }
  return value === null ? {} : {type: typeof value}
}

/** The schema of a rule's options object: every option has a default, and no other key is allowed. */
export function optionsSchemaOf(defaults: object, declared: Record<string, JsonSchema | undefined> = {}): JsonSchema {
  const properties = Object.fromEntries(Object.entries(defaults).map(([key, value]) => [key, declared[key] ?? schemaOfDefault(value)]))
  return {type: 'object', properties, additionalProperties: false}
}

/** One ajv error as a phrase about the option it concerns. */
function describeError(error: ErrorObject, schema: JsonSchema): string {
  const option = error.instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
    .join('.')
  if (error.keyword === 'additionalProperties') {
    const unknown = String(error.params.additionalProperty)
    if (option === '') {
      const known = Object.keys((schema.properties as object | undefined) ?? {})
      return `unknown option \`${unknown}\` (${known.length > 0 ? `known: ${known.map((key) => `\`${key}\``).join(', ')}` : 'the rule takes none'})`
    }
    return `option \`${option}\` has an unknown key \`${unknown}\``
  }
  if (error.keyword === 'required') {
    const missing = `\`${String(error.params.missingProperty)}\``
    return option === '' ? `the options need ${missing}` : `option \`${option}\` needs ${missing}`
  }
  if (error.keyword === 'type') return option === '' ? `the options must be an object (\`{…}\`)` : `option \`${option}\` must be ${article(String(error.params.type))}`
  return option === '' ? `the options ${error.message}` : `option \`${option}\` ${error.message}`
}

const article = (type: string) => (type === 'array' ? 'a list' : type === 'object' ? 'an object' : `a ${type}`)

/**
 * Checks options against a schema: a validator compiled on first use (ajv is
 * loaded only then, so a run that configures no option never loads it).
 * The returned function gives the problems as one phrase naming the
 * options, or `undefined` when the options are fine.
 */
export function optionsChecker(schema: JsonSchema): (options: unknown) => string | undefined {
  let validate: ValidateFunction | undefined
  return (options) => {
    if (!validate) {
      const {Ajv} = createRequire(import.meta.url)('ajv') as typeof import('ajv')
      validate = new Ajv({allErrors: true, strict: false}).compile(schema)
    }
    if (validate(options)) return undefined
    return [...new Set((validate.errors ?? []).map((error) => describeError(error, schema)))].join('; ')
  }
}
