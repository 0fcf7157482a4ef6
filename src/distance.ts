/** Levenshtein distance, for "did you mean" suggestions. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({length: b.length + 1}, (_, index) => index)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1))
    }
    previous = current
  }
  return previous[b.length]
}

/** Candidates sorted closest first (case-insensitive distance, ties keep their order). */
export function closestFirst(value: string, candidates: readonly string[]): string[] {
  const lower = value.toLowerCase()
  return candidates
    .map((candidate, index) => ({candidate, index, distance: editDistance(lower, candidate.toLowerCase())}))
    .sort((a, b) => a.distance - b.distance || a.index - b.index)
    .map((entry) => entry.candidate)
}

/** Whether `candidate` is close enough to `value` to be what was meant (a slip, not a different word). */
export function isNearMiss(value: string, candidate: string): boolean {
  if (value.toLowerCase() === candidate.toLowerCase()) return true
  const distance = editDistance(value.toLowerCase(), candidate.toLowerCase())
  return distance <= 2 && distance < Math.max(value.length, candidate.length) / 3
}

/** The one candidate `value` is a near miss of (what was meant), or `undefined` when none or several are. */
export function onlyNearMiss(value: string, candidates: readonly string[]): string | undefined {
  const near = candidates.filter((candidate) => isNearMiss(value, candidate))
  return near.length === 1 ? near[0] : undefined
}
