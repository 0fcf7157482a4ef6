/**
 * The `##` completion markers that agents end their output with: the
 * Plan-Build-Run agent contracts, and GSD's (`references/agent-contracts.md`
 * of GSD 1.14, and `GAP CLOSURE PLANS CREATED`, which GSD 1.42's planner still
 * returns). GSD's two title-case markers are written as GSD writes them.
 */
export const completionMarkers = [
  'PLAN COMPLETE', 'PLAN FAILED', 'CHECKPOINT:', 'PLANNING COMPLETE', 'PLANNING FAILED',
  'PLANNING INCONCLUSIVE', 'VERIFICATION COMPLETE', 'VERIFICATION PASSED', 'RESEARCH COMPLETE',
  'RESEARCH BLOCKED', 'SYNTHESIS COMPLETE', 'SYNTHESIS BLOCKED', 'CHECK PASSED', 'ISSUES FOUND',
  'DEBUG COMPLETE', 'ROOT CAUSE FOUND', 'DEBUG SESSION PAUSED', 'MAPPING COMPLETE',
  'PATTERN MAPPING COMPLETE', 'UI-SPEC COMPLETE', 'INTEGRATION CHECK COMPLETE', 'TASK COMPLETE',
  'TASK FAILED', 'AUDIT COMPLETE',
  // GSD
  'CHECKPOINT REACHED', 'OUTLINE COMPLETE', 'PHASE SPLIT RECOMMENDED', '⚠ Source Audit', 'REVISION_CONFLICT',
  'GAP CLOSURE PLANS CREATED', 'INVESTIGATION INCONCLUSIVE', 'TDD CHECKPOINT', 'FIX REJECTED BY GUARDRAIL',
  'DEBUG SESSION COMPLETE', 'CONTINUE_REQUIRED', 'ROADMAP CREATED', 'ROADMAP REVISED', 'ROADMAP BLOCKED',
  'UI REVIEW COMPLETE', 'UI-SPEC VERIFIED', 'UI-SPEC BLOCKED', 'Verification Complete', 'Integration Check Complete',
  'PARTIAL', 'ESCALATE', 'GAPS FILLED', 'OPEN_THREATS', 'SECURED'
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
