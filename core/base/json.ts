// Canonical JSON: the same value written with its keys in another order gives the same text, so it can
// be hashed and compared. The format is stored (argument hashes in checkpoints): never change it. Pure.

/** JSON with object keys sorted at every depth; `undefined` is written as null. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1))
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`
  }
  return JSON.stringify(value) ?? "null"
}
