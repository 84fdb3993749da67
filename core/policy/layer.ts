// One policy layer as loaded: the validated file value, where each value sits, and whether it is trusted.
// Plain JSON (cached on disk between runs). Pure.
import type { LayerName } from "./types.ts"
import type { PolicyFile } from "./schema.ts"

export interface Layer {
  name: LayerName
  /** what to call it in messages: a file path, "env", "flags", "builtin:default.yaml" */
  label: string
  trusted: boolean
  /** the file it came from (absolute) and its content hash: trust is recorded per file content */
  file?: string
  sha256?: string
  value: PolicyFile
  /** dotted key ("approval.threshold", "rules.2", "risk.tools.shell") -> "file:line" */
  at: Record<string, string>
}

/** Where the value at `path` came from: its own line, else the nearest enclosing key's, else the layer. */
export function sourceAt(layer: Layer, path: string): string {
  let key = path
  for (;;) {
    const hit = layer.at[key]
    if (hit) return hit
    const dot = key.lastIndexOf(".")
    if (dot < 0) return layer.label
    key = key.slice(0, dot)
  }
}

/**
 * A layer of an outer folder (the repository root above a nested `.ccode/`) keeps meaning what it
 * says: its relative path patterns (`prod/**`) are anchored at its own root, not the inner workspace.
 */
export function anchorLayer(layer: Layer, root: string): Layer {
  const v = layer.value
  const anchor = (p: string) => (!p.includes("/") || p.startsWith("/") || p.startsWith("~") ? p : `${root}/${p.startsWith("./") ? p.slice(2) : p}`)
  const value: PolicyFile = { ...v }
  if (v.rules) value.rules = v.rules.map((r) => (r.path === undefined ? r : { ...r, path: typeof r.path === "string" ? anchor(r.path) : r.path.map(anchor) }))
  if (v.risk?.paths) value.risk = { ...v.risk, paths: v.risk.paths.map((rp) => ({ ...rp, path: anchor(rp.path) })) }
  if (v.workspace?.protected) value.workspace = { ...v.workspace, protected: v.workspace.protected.map(anchor) }
  return { ...layer, value }
}

export const BUNDLED_NAMES = ["default", "strict", "ci"] as const
export type BundledName = (typeof BUNDLED_NAMES)[number]
