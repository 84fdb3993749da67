// The attack and control corpora (tests/shell/attacks-*.yaml, tests/shell/controls.txt), read once and
// decided the way a shell call is decided under the bundled `default` policy. Shared by the decide()
// test and the compiled-binary test.
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { analyzeShell } from "../../core/shell/index.ts"
import { decide } from "../../core/policy/decide.ts"
import { bundledPolicy } from "../../core/policy/bundled.ts"
import type { Decision } from "../../core/policy/types.ts"
import type { Risk } from "../../core/policy/risk.ts"

export interface Attack {
  cmd: string
  decision: "allow" | "ask" | "deny"
  risk: Risk
  /** words the decision's reason must hold */
  reason: string
  note?: string
  /** the file it came from */
  file: string
}

export const ATTACK_CONTEXT = {
  cwd: "/home/dev/project",
  workspace: "/home/dev/project",
  home: "/home/dev",
  env: { HOME: "/home/dev", PATH: "/usr/local/bin:/usr/bin:/bin", USER: "dev" } as Record<string, string | undefined>,
}

export function loadAttacks(): Attack[] {
  const out: Attack[] = []
  for (const name of readdirSync(import.meta.dir).filter((f) => /^attacks-.*\.yaml$/.test(f)).sort()) {
    const entries = Bun.YAML.parse(readFileSync(join(import.meta.dir, name), "utf8")) as Omit<Attack, "file">[]
    for (const e of entries) out.push({ ...e, file: name })
  }
  return out
}

export function loadControls(): string[] {
  const text = readFileSync(join(import.meta.dir, "controls.txt"), "utf8")
  return text.split("\n").filter((l) => l.trim() && !l.startsWith("#"))
}

const policy = bundledPolicy("default")

/** decide() for a shell command under the bundled default policy, in ATTACK_CONTEXT. */
export async function decideDefault(cmd: string, resolve?: (path: string) => string): Promise<Decision> {
  const ctx = { ...ATTACK_CONTEXT, overrides: policy.risk.overrides, ...(resolve ? { realpath: resolve } : {}) }
  const shell = await analyzeShell(cmd, ctx)
  const { cwd, workspace, home } = ATTACK_CONTEXT
  return decide(policy, { tool: "shell", args: { command: cmd }, cwd, workspace, home, tmpDirs: ["/tmp"], shell, paths: shell.paths }, { grants: [] })
}
