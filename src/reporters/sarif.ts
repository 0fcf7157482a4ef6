import path from 'node:path'
import {pathToFileURL} from 'node:url'
import type {Log, ReportingDescriptor, Result} from 'sarif'
import {rules} from '../../rules/index.js'
import {docsUrl} from '../rule.js'
import {suppressionDocsUrl} from '../suppression-check.js'
import {version} from '../version.js'
import {editDescription, portableRelativePath, severityName, type LintResult} from './result.js'
import {ruleDocs} from './rule-docs.js'

const sourceRoot = '%SRCROOT%'

/** `auto-select-option` → `AutoSelectOption`: SARIF's rule `name` is an identifier-like word. */
const pascalCase = (id: string) => id.replace(/(?:^|-)([a-z0-9])/g, (_, letter: string) => letter.toUpperCase())

/**
 * Rule metadata for every planlint rule, then the suppression check: the
 * descriptions and help come from the rule's docs page (its first paragraph,
 * and the page up to its examples), as GitHub code scanning shows them.
 */
function planlintRules(): ReportingDescriptor[] {
  const descriptors: ReportingDescriptor[] = Object.values(rules).map((rule) => {
    const docs = ruleDocs(rule.id)
    const help = docs?.page ?? `${rule.description} See ${docsUrl(rule.id)}`
    return {
      id: rule.id,
      name: pascalCase(rule.id),
      shortDescription: {text: rule.description},
      fullDescription: {text: docs?.summary ?? rule.description},
      help: {text: help, markdown: help},
      helpUri: docsUrl(rule.id),
      defaultConfiguration: {level: rule.severity}
    }
  })
  const suppression = 'Inline suppression comments name planlint rules and suppress something.'
  const suppressionHelp = `A \`planlint-disable\` (or remark-lint \`lint disable\`) comment that names no planlint rule, or that turned off nothing, is reported: it hides nothing today and would hide a real finding later. See ${suppressionDocsUrl}`
  descriptors.push({
    id: 'suppression',
    name: 'SuppressionComments',
    shortDescription: {text: suppression},
    fullDescription: {text: suppression},
    help: {text: suppressionHelp, markdown: suppressionHelp},
    helpUri: suppressionDocsUrl,
    defaultConfiguration: {level: 'warning'}
  })
  return descriptors
}

/**
 * SARIF 2.1.0 for GitHub code scanning: one run, the rules as tool metadata,
 * one result per message with its region (1-based lines, UTF-16 columns) and
 * its fix as a replacement. URIs are relative to `cwd` (`%SRCROOT%`).
 * Messages of rules planlint does not know (a `.remarkrc` may add remark-lint
 * rules) get a bare rule entry.
 */
export function formatSarif(results: LintResult[], options: {cwd?: string} = {}): string {
  const cwd = options.cwd ?? process.cwd()
  const descriptors = planlintRules()
  const indexOf = (ruleId: string) => {
    let index = descriptors.findIndex((descriptor) => descriptor.id === ruleId)
    if (index === -1) index = descriptors.push({id: ruleId}) - 1
    return index
  }
  const sarifResults: Result[] = []
  for (const result of results) {
    const artifactLocation = {uri: encodeURI(portableRelativePath(result.filePath, cwd)), uriBaseId: sourceRoot}
    for (const message of result.messages) {
      sarifResults.push({
        ...(message.ruleId ? {ruleId: message.ruleId, ruleIndex: indexOf(message.ruleId)} : {}),
        level: severityName(message),
        message: {text: message.message},
        locations: [
          {
            physicalLocation: {
              artifactLocation,
              region: {
                startLine: message.line,
                startColumn: message.column,
                ...(message.endLine === undefined ? {} : {endLine: message.endLine, endColumn: message.endColumn})
              }
            }
          }
        ],
        ...(message.fix
          ? {
              fixes: [
                {
                  description: {text: editDescription(message.fix)},
                  artifactChanges: [
                    {
                      artifactLocation,
                      replacements: [
                        {
                          deletedRegion: {charOffset: message.fix.range[0], charLength: message.fix.range[1] - message.fix.range[0]},
                          insertedContent: {text: message.fix.text}
                        }
                      ]
                    }
                  ]
                }
              ]
            }
          : {})
      })
    }
  }
  const log: Log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {driver: {name: 'planlint', version, informationUri: 'https://github.com/planlint/planlint', rules: descriptors}},
        originalUriBaseIds: {[sourceRoot]: {uri: pathToFileURL(cwd + path.sep).href}},
        columnKind: 'utf16CodeUnits',
        results: sarifResults
      }
    ]
  }
  return JSON.stringify(log, null, 2) + '\n'
}
