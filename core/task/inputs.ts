// A task's input values: `--var name=value` over `CCODE_VAR_name` over the declared default.
// Pure: the caller passes the flags and the environment. Problems are exit 2 before anything runs.
import type { Input } from "./schema.ts"
import { ConfigError, positionOf, type YamlSource } from "../base/yaml.ts"

/** A bad --var flag (exit 2): named by the flag, since it is not in any file. */
export class VarFlagError extends Error {
  readonly exitCode = 2
  override name = "VarFlagError"
}

/** `--var name=value` flags, in order (a later one wins); throws VarFlagError on a malformed one. */
export function parseVarFlags(flags: string[]): Record<string, string> {
  const vars: Record<string, string> = {}
  for (const flag of flags) {
    const eq = flag.indexOf("=")
    if (eq <= 0) throw new VarFlagError(`--var takes name=value, got "${flag.slice(0, 80)}"`)
    vars[flag.slice(0, eq)] = flag.slice(eq + 1)
  }
  return vars
}

/**
 * The value of every declared input. An unknown `--var` name is an error (a typo must not run the
 * task with its default); an unknown CCODE_VAR_ name is not (the environment is shared by tasks).
 */
export function resolveInputs(
  file: string, declared: Record<string, Input>, vars: Record<string, string>, env: Record<string, string | undefined>, source: () => YamlSource,
): Record<string, string> {
  for (const name of Object.keys(vars)) {
    if (!Object.hasOwn(declared, name)) {
      const known = Object.keys(declared)
      throw new VarFlagError(`--var ${name}: ${file} has no input "${name}"${known.length ? ` (its inputs: ${known.join(", ")})` : " (it declares no inputs:)"}`)
    }
  }
  const values: Record<string, string> = Object.create(null) // an input may be named __proto__
  for (const [name, input] of Object.entries(declared)) {
    const value = Object.hasOwn(vars, name) ? vars[name] : env[`CCODE_VAR_${name}`] ?? input.default
    if (value === undefined) {
      if (input.required) {
        const at = positionOf(source(), ["inputs", name])
        throw new ConfigError(file, at.line, at.col, `input "${name}" is required: give it with --var ${name}=VALUE or CCODE_VAR_${name}`)
      }
      continue
    }
    values[name] = value
  }
  return values
}
