/** The `##` completion markers that agents end their output with (Plan-Build-Run agent contracts). */
export const completionMarkers = [
  'PLAN COMPLETE', 'PLAN FAILED', 'CHECKPOINT:', 'PLANNING COMPLETE', 'PLANNING FAILED',
  'PLANNING INCONCLUSIVE', 'VERIFICATION COMPLETE', 'VERIFICATION PASSED', 'RESEARCH COMPLETE',
  'RESEARCH BLOCKED', 'SYNTHESIS COMPLETE', 'SYNTHESIS BLOCKED', 'CHECK PASSED', 'ISSUES FOUND',
  'DEBUG COMPLETE', 'ROOT CAUSE FOUND', 'DEBUG SESSION PAUSED', 'MAPPING COMPLETE',
  'PATTERN MAPPING COMPLETE', 'UI-SPEC COMPLETE', 'INTEGRATION CHECK COMPLETE', 'TASK COMPLETE',
  'TASK FAILED', 'AUDIT COMPLETE'
]

/** The checkpoint types a `CHECKPOINT: <TYPE>` marker may name. */
export const checkpointMarkerTypes = [
  'HUMAN-VERIFY', 'DECISION', 'HUMAN-ACTION', 'TDD-REVIEW',
  'VERIFICATION REQUIRED', 'DECISION REQUIRED', 'ACTION REQUIRED'
]

/** The marker a heading text starts with (a marker is a prefix ending at a word boundary), if any. */
export function markerOf(headingText: string, markers: readonly string[] = completionMarkers): string | undefined {
  const text = headingText.trim()
  let best: string | undefined
  for (const marker of markers) {
    if (!text.startsWith(marker)) continue
    const after = text.charAt(marker.length)
    const boundary = marker.endsWith(':') || after === '' || !/[A-Za-z0-9_-]/.test(after)
    if (boundary && (!best || marker.length > best.length)) best = marker
  }
  return best
}
