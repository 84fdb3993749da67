// rg's file types as whitelists: a file a selected type matches is searched even when its name starts with
// a dot (rg decides types before its hidden test). Pure.
import type { Valued } from "./getopt.ts"

// A file a selected type matches is whitelisted too (`--type-add 'e:*.env' -te`, `-tall`): rg decides types
// before its hidden test. The globs of the selected types defined on the command line (`NAME:GLOB`,
// `NAME:include:A,B`), and of the built-in types that name one (ripgrep 14's `sh` holds `.env` and
// `*.env`; `all` is every type); undefined when a definition or a selection is not known statically. (A
// type from RIPGREP_CONFIG_PATH is judged with the config's lines.)
const BUILTIN_ENV = ["sh", "all"]

/** The credential dot-names a built-in type selected by NAME matches. */
export function builtinTypeGlobs(name: string): string[] {
  return BUILTIN_ENV.includes(name) ? [".env", "*.env"] : []
}

export function rgTypeGlobs(valued: readonly Valued[]): string[] | undefined {
  const defs = new Map<string, string[]>()
  const includes: [string, string[]][] = []
  const selected: string[] = []
  for (const v of valued) {
    if (v.name !== "type-add" && v.name !== "t" && v.name !== "type") continue
    const text = v.value?.value
    if (text === undefined) return undefined
    if (v.name !== "type-add") {
      selected.push(text)
      continue
    }
    const colon = text.indexOf(":")
    if (colon < 0) continue
    const name = text.slice(0, colon)
    const rest = text.slice(colon + 1)
    if (rest.startsWith("include:")) includes.push([name, rest.slice(8).split(",")])
    else defs.set(name, [...(defs.get(name) ?? []), rest])
  }
  if (!selected.length) return []
  for (const name of BUILTIN_ENV) defs.set(name, [...(defs.get(name) ?? []), ...builtinTypeGlobs(name)])
  // an include takes the globs its types have (after every definition: rg reads them all first)
  for (let round = 0; round < includes.length; round++) {
    for (const [name, from] of includes) defs.set(name, [...new Set([...(defs.get(name) ?? []), ...from.flatMap((t) => defs.get(t) ?? [])])])
  }
  const out: string[] = []
  for (const name of selected) out.push(...(name === "all" ? [...defs.values()].flat() : (defs.get(name) ?? [])))
  return out
}
