// Environment variables whose names say they hold a secret (GITHUB_TOKEN, AWS_SECRET_ACCESS_KEY), named
// directly: `echo $ANTHROPIC_API_KEY`, `printenv GITHUB_TOKEN`, `declare -p X` print the value as `env`
// would. One the script set itself is its own value. Pure.
import type { Finding } from "./raw.ts"
import type { Part } from "./part.ts"
import type { SNode } from "./parser.ts"
import type { Lookup } from "./word.ts"
import { looksSecretName } from "../base/secretname.ts"
import { known } from "./known.ts"
import { readOptions } from "./getopt.ts"


export function secretVariableFinding(name: string): Finding {
  return { name: "secret-variable", level: "medium", reason: `uses the secret variable $${name}: its value reaches the command's arguments or output` }
}

/** `printenv NAME`: the secret names it prints that the script did not set (export or NAME=v before it). */
export function printedSecrets(part: Part): string[] {
  if (part.program !== "printenv") return []
  const out: string[] = []
  for (const o of readOptions(part.words.slice(1), known("printenv")!.options).operands) {
    const name = o.value
    if (name === undefined || !looksSecretName(name) || part.exported?.has(name) || part.assignments.some((a) => a.name === name)) continue
    out.push(name)
  }
  return out
}

/** `declare -p NAME` (typeset, local, readonly, export): each name is looked up as an expansion would
 *  be, so one the script did not set is recorded as a secret read. */
export function declarePrints(src: string, node: SNode, lookup: Lookup): void {
  const words = node.children.filter((c) => c.type === "word" || c.type === "variable_name").map((c) => src.slice(c.start, c.end))
  if (!words.some((f) => /^-[a-zA-Z]*p/.test(f))) return
  for (const name of words) if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) lookup(name)
}
