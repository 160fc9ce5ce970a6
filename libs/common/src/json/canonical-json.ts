/**
 * JSON with object keys sorted at every depth: jsonb does not keep key order, so comparing a
 * stored value with a fresh one by plain JSON.stringify would see changes that are not there.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, field: unknown) =>
    field && typeof field === 'object' && !Array.isArray(field)
      ? Object.fromEntries(Object.entries(field as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : field,
  );
}
