/** Normalises a phase or plan number: `01` → `1`, `02b` → `2b`, `05.1-auth` → `5.1`. */
export function normalizeNumber(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value)
  if (typeof value !== 'string') return undefined
  const match = /^\s*(\d+(?:\.\d+)*)([a-z])?(?![a-z])/i.exec(value)
  if (!match) return undefined
  const numeric = match[1]
    .split('.')
    .map((part) => String(Number(part)))
    .join('.')
  return numeric + (match[2] ?? '').toLowerCase()
}

/** The phase and plan numbers a plan file name carries (`01-02-PLAN.md`, `01-02-auth-PLAN.md`, `PLAN-02.md`). */
export function idsFromFileName(fileName: string): {phase?: string; plan?: string} {
  const full = /^(\d+(?:\.\d+)*[a-z]?)-(\d+[a-z]?)(?=-|\.)/i.exec(fileName)
  if (full) return {phase: normalizeNumber(full[1]), plan: normalizeNumber(full[2])}
  const numbered = /^PLAN-(\d+[a-z]?)\.md$/i.exec(fileName) ?? /^(\d+[a-z]?)-PLAN\.md$/i.exec(fileName)
  if (numbered) return {plan: normalizeNumber(numbered[1])}
  return {}
}

/** The file stem that names a plan in messages and references: `01-02-PLAN.md` → `01-02`. */
export function planStem(fileName: string): string {
  return fileName.replace(/\.md$/i, '').replace(/-PLAN$/, '')
}
