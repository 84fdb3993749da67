// Flag handling citty leaves to us: unknown flags are errors that name the flag, flags may repeat,
// and the global flags every command takes.
import type { ArgsDef } from "citty"
import { UsageError } from "./errors.ts"

export const globalArgs = {
  db: { type: "string", description: "database file (env CCODE_DB; default $CCODE_HOME/ccode.db)", valueHint: "path" },
  quiet: { type: "boolean", description: "print only errors and the final result" },
  verbose: { type: "boolean", description: "print more detail" },
} as const satisfies ArgsDef

export const jsonArg = { json: { type: "boolean", description: "machine-readable JSON on stdout" } } as const satisfies ArgsDef

/** Throw a UsageError for the first flag (before `--`) the command does not know. */
export function checkFlags(rawArgs: string[], def: ArgsDef, command: string): void {
  const known = new Map<string, "boolean" | "string">()
  for (const [name, arg] of Object.entries(def)) {
    if (arg.type === "positional") continue
    const kind = arg.type === "boolean" ? "boolean" : "string"
    const alias = (arg as { alias?: string | string[] }).alias
    const aliases = Array.isArray(alias) ? alias : alias ? [alias] : []
    for (const n of [name, kebab(name), ...aliases]) known.set(n, kind)
  }
  for (let i = 0; i < rawArgs.length; i++) {
    const raw = rawArgs[i]!
    if (raw === "--") return
    if (!raw.startsWith("-") || raw === "-") continue
    const name = raw.replace(/^--?/, "").split("=")[0]!
    const kind = known.get(name) ?? (name.startsWith("no-") && known.get(name.slice(3)) === "boolean" ? "boolean" : undefined)
    if (!kind) throw new UsageError(`unknown flag ${raw.split("=")[0]} for \`ccode ${command}\`; see \`ccode ${command} --help\``)
    if (kind === "string" && !raw.includes("=")) {
      const value = rawArgs[i + 1]
      if (value === undefined || (value.startsWith("--") && value.length > 2)) throw new UsageError(`flag ${raw} needs a value`)
      i++
    }
  }
}

/** Every value given for a repeatable string flag (`--policy a --policy b`). */
export function allValues(rawArgs: string[], name: string): string[] {
  const values: string[] = []
  for (let i = 0; i < rawArgs.length; i++) {
    const raw = rawArgs[i]!
    if (raw === "--") break
    if (raw === `--${name}`) values.push(rawArgs[++i] ?? "")
    else if (raw.startsWith(`--${name}=`)) values.push(raw.slice(name.length + 3))
  }
  return values
}

/** The arguments after `--`. */
export function afterDashes(rawArgs: string[]): string[] {
  const i = rawArgs.indexOf("--")
  return i < 0 ? [] : rawArgs.slice(i + 1)
}

export function positiveInt(value: unknown, flag: string): number | undefined {
  if (value === undefined || value === "") return undefined
  const n = Number(value)
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${flag} takes a whole number of at least 1, got "${value}"`)
  return n
}

function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)
}
