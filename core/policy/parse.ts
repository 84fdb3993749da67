// Policy YAML -> a Layer: schema validation, checks zod cannot express (matchers, regex safety) and
// the rules' own examples, every problem as file:line:col. Heavy (yaml, zod): load it lazily.
import { parseYaml, validateYaml, positionOf, ConfigError, type YamlSource } from "../base/yaml.ts"
import { PolicyFile } from "./schema.ts"
import type { Layer } from "./layer.ts"
import type { LayerName } from "./types.ts"
import { checkRegexSafety } from "./regex.ts"
import { runExamples } from "./examples.ts"

export interface LayerMeta {
  name: LayerName
  trusted: boolean
  /** absolute path and content hash, for trust */
  file?: string
  sha256?: string
  /** skip running the examples (they were proven when this content was first loaded) */
  skipExamples?: boolean
}

/** Parse and check a policy file's text. `file` is how it is named in messages and sources. */
export async function parsePolicy(text: string, file: string, meta: LayerMeta): Promise<Layer> {
  const src = parseYaml(text, file)
  const value = validateYaml(src, PolicyFile)
  return layerFromValue(value, src, [], meta)
}

/**
 * A layer from an already validated value (e.g. a task file's `policy:` section at `prefix`),
 * with file:line for every value taken from `src`.
 */
export async function layerFromValue(
  value: PolicyFile, src: YamlSource, prefix: readonly PropertyKey[], meta: LayerMeta,
): Promise<Layer> {
  const fail = (path: readonly PropertyKey[], problem: string): never => {
    const at = positionOf(src, [...prefix, ...path])
    throw new ConfigError(src.file, at.line, at.col, problem)
  }
  checkRules(value, fail)
  checkRegexes(value, fail)
  if (!meta.skipExamples) {
    const failure = (await runExamples(value))[0]
    if (failure) fail(failure.path.split(".").map((k) => (/^\d+$/.test(k) ? Number(k) : k)), failure.problem)
  }
  const at: Record<string, string> = {}
  collectPositions(src, prefix, value, [], at)
  return { name: meta.name, label: src.file, trusted: meta.trusted, file: meta.file, sha256: meta.sha256, value, at }
}

type Fail = (path: readonly PropertyKey[], problem: string) => never

function checkRules(value: PolicyFile, fail: Fail): void {
  for (const [i, rule] of (value.rules ?? []).entries()) {
    const name = rule.id ? `rule "${rule.id}"` : `rule ${i + 1}`
    if (rule.tool === undefined && rule.command === undefined && rule.path === undefined && rule.args === undefined) {
      fail(["rules", i], `${name} names neither a tool nor a command, path or args to match`)
    }
    if (rule.access !== undefined && rule.path === undefined) fail(["rules", i, "access"], `${name}: access needs a path`)
    const tools = rule.tool === undefined ? undefined : [rule.tool].flat()
    if (rule.command !== undefined && tools && !tools.some((t) => t === "shell" || /[*?[{]/.test(t))) {
      fail(["rules", i, "command"], `${name}: command patterns only match the shell tool, add it to tool`)
    }
    for (const [j, pattern] of [rule.command ?? []].flat().entries()) {
      if (!pattern.trim()) fail(["rules", i, "command", ...(Array.isArray(rule.command) ? [j] : [])], `${name}: empty command pattern`)
    }
  }
}

function checkRegexes(value: PolicyFile, fail: Fail): void {
  for (const [i, rule] of (value.rules ?? []).entries()) {
    for (const [field, re] of Object.entries(rule.args ?? {})) {
      const problem = checkRegexSafety(re)
      if (problem) fail(["rules", i, "args", field], `rules[${i}].args.${field}: ${problem}`)
    }
  }
  for (const [i, rc] of (value.risk?.commands ?? []).entries()) {
    const problem = checkRegexSafety(rc.regex)
    if (problem) fail(["risk", "commands", i, "regex"], `risk.commands[${i}].regex: ${problem}`)
  }
  for (const [i, p] of (value.redaction?.patterns ?? []).entries()) {
    const problem = checkRegexSafety(p.regex)
    if (problem) fail(["redaction", "patterns", i, "regex"], `redaction.patterns[${i}].regex: ${problem}`)
  }
}

// "file:line" for every key and list item, so merged values can say where they came from.
function collectPositions(
  src: YamlSource, prefix: readonly PropertyKey[], node: unknown, path: (string | number)[], at: Record<string, string>,
): void {
  if (path.length) at[path.join(".")] = `${src.file}:${positionOf(src, [...prefix, ...path]).line}`
  if (path.length >= 4 || node === null || typeof node !== "object") return
  if (Array.isArray(node)) node.forEach((item, i) => collectPositions(src, prefix, item, [...path, i], at))
  else for (const [key, child] of Object.entries(node)) collectPositions(src, prefix, child, [...path, key], at)
}
