/** Where the docs of planlint's rules live: a module of its own, so that reporting a cached run needs no rule loaded. */
export const docsBaseUrl = 'https://github.com/planlint/planlint/blob/main/docs/rules/'

export function docsUrl(ruleId: string): string {
  return `${docsBaseUrl}${ruleId}.md`
}

/** The docs page of the unused-suppression check. */
export const suppressionDocsUrl = new URL('../suppression.md', docsBaseUrl).href
