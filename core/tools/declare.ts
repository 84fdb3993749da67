// What a tool says it touches: the one place where the policy (path rules, risk.paths, protected
// paths), confinement, snapshots and the MCP server read a tool's effects and paths. Pure: no fs.
import type { DeclaredPath, Effect, Tool } from "./types.ts"

export type Declaration = Pick<Tool, "effects" | "paths">

/** A tool that changes nothing on the machine: declared, and every effect is a read. */
export function isReadOnly(tool: Declaration | undefined): boolean {
  return Boolean(tool?.effects) && tool!.effects!.every((e) => e === "read")
}

/** Does the tool (as declared; undeclared means anything) have this effect? */
export function hasEffect(tool: Declaration | undefined, effect: Effect): boolean {
  return !tool?.effects || tool.effects.includes(effect)
}

/**
 * The paths a call with these arguments touches, as given (relative to the call's cwd, or absolute).
 * A paths function that throws is rethrown: the caller fails closed.
 */
export function declaredPaths(tool: Declaration | undefined, args: Record<string, unknown>): DeclaredPath[] {
  const paths = tool?.paths
  if (typeof paths === "function") return paths(args).filter((p) => typeof p.path === "string" && p.path !== "")
  if (paths) {
    const out: DeclaredPath[] = []
    for (const spec of paths) {
      const given = pathValues(args[spec.arg])
      const values = given.length ? given : spec.default !== undefined ? [spec.default] : []
      for (const path of values) {
        const p: DeclaredPath = spec.dir ? { path, access: spec.access, dir: true } : { path, access: spec.access }
        if (spec.dir && spec.contents) p.contents = true
        out.push(p)
      }
    }
    return out
  }
  return guessedPaths(args, isReadOnly(tool) ? "read" : "write")
}

/**
 * Arguments named like paths (path, file, dir, target_path, outputFile, ...), for tools that do not
 * declare theirs: taken as paths so path rules apply to them too (fail closed). Nested objects are
 * searched too (`{options: {output_file: ...}}`); `skip` names top-level arguments that are not paths.
 */
export function guessedPaths(args: Record<string, unknown>, access: DeclaredPath["access"], skip: ReadonlySet<string> = NONE): DeclaredPath[] {
  const out: DeclaredPath[] = []
  const walk = (value: Record<string, unknown>, depth: number) => {
    for (const [name, inner] of Object.entries(value)) {
      if (depth === 0 && skip.has(name)) continue
      if (isPathName(name)) for (const path of pathValues(inner)) out.push({ path, access })
      if (depth >= MAX_DEPTH) continue
      for (const item of Array.isArray(inner) ? inner : [inner]) {
        if (item && typeof item === "object" && !Array.isArray(item)) walk(item as Record<string, unknown>, depth + 1)
      }
    }
  }
  walk(args, 0)
  return out
}

const NONE: ReadonlySet<string> = new Set()
const MAX_DEPTH = 4

const PATH_WORDS = new Set(["path", "paths", "file", "files", "filename", "filenames", "filepath", "dir", "dirs", "directory", "folder", "cwd"])
const PATH_NAMES = new Set(["dest", "destination", "target", "source", "src", "output", "out", "root", "location"])

/** `path`, `file_path`, `filePath`, `output-dir`, `dest`: the last word of the name says it. */
export function isPathName(name: string): boolean {
  const words = name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase().split(/[_\-\s.]+/).filter(Boolean)
  const last = words.at(-1)
  if (!last) return false
  return PATH_WORDS.has(last) || (words.length === 1 && PATH_NAMES.has(last))
}

function pathValues(value: unknown): string[] {
  if (typeof value === "string") return value ? [value] : []
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === "string" && v !== "")
  return []
}
