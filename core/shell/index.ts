// Public face of shell analysis. PLACEHOLDER: a whitespace tokenizer until the tree-sitter
// analysis lands; same API. Pure: no fs, no clock.
import type { Risk } from "../policy/risk.ts"
import type { ShellAnalysis, SimpleCommand } from "./types.ts"

export type { ShellAnalysis, SimpleCommand, TouchedPath } from "./types.ts"

export interface AnalyzeContext {
  cwd: string
  workspace: string
  home: string
  /** the environment the command would run with (to know unset variables) */
  env?: Record<string, string | undefined>
  /** policy risk.overrides: level per built-in classifier entry name */
  overrides?: Record<string, Risk>
}

export async function analyzeShell(command: string, ctx: AnalyzeContext): Promise<ShellAnalysis> {
  void ctx
  const parts = command.split(/&&|\|\||;|\||\n/).map((p) => p.trim()).filter(Boolean)
  const commands: SimpleCommand[] = parts.map((text) => {
    const [program = "", ...args] = text.split(/\s+/)
    return {
      text, program: program.split("/").pop() ?? program, args, assignments: [], redirects: [], context: [],
      wrappers: [], risk: "medium", reasons: ["unknown command"], classes: [], unresolved: false, loaderEnv: false,
    }
  })
  return { source: command, commands, risk: "medium", reasons: [], unresolvable: false, paths: [] }
}

/** Does a rule's token pattern match one simple command? `restrict` (deny/ask) also matches the canonical form. */
export function matchCommandPattern(pattern: string, cmd: SimpleCommand, mode: "allow" | "restrict"): boolean {
  void mode
  const want = pattern.trim().split(/\s+/)
  const have = [cmd.program, ...cmd.args]
  return matchTokens(want, 0, have, 0)
}

function matchTokens(p: string[], i: number, t: string[], j: number): boolean {
  if (i === p.length) return j === t.length
  const tok = p[i]!
  if (tok === "*") {
    for (let k = j; k <= t.length; k++) if (matchTokens(p, i + 1, t, k)) return true
    return false
  }
  if (j >= t.length) return false
  const ok = tok.endsWith("*") ? t[j]!.startsWith(tok.slice(0, -1)) : t[j] === tok
  return ok && matchTokens(p, i + 1, t, j + 1)
}
