import path from 'node:path'
import {pathToFileURL} from 'node:url'
import type {Log, ReportingDescriptor, Result} from 'sarif'
import {rules} from '../../rules/index.js'
import {docsUrl} from '../rule.js'
import {suppressionDocsUrl} from '../suppression-check.js'
import {version} from '../version.js'
import {editDescription, portableRelativePath, severityName, type LintResult} from './result.js'

const sourceRoot = '%SRCROOT%'

/** Rule metadata for every planlint rule, then the suppression check. */
function planlintRules(): ReportingDescriptor[] {
  const descriptors: ReportingDescriptor[] = Object.values(rules).map((rule) => ({
    id: rule.id,
    shortDescription: {text: rule.description},
    helpUri: docsUrl(rule.id),
    defaultConfiguration: {level: rule.severity}
  }))
  descriptors.push({
    id: 'suppression',
    shortDescription: {text: 'Inline suppression comments name planlint rules and suppress something.'},
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
