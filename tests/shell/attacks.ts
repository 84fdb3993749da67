// The attack and control corpora (tests/shell/attacks-*.yaml, tests/shell/controls.txt), read once and
// decided the way a shell call is decided under the bundled `default` policy. Shared by the decide()
// test and the compiled-binary test.
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { analyzeShell } from "../../core/shell/index.ts"
import { decide } from "../../core/policy/decide.ts"
import { bundledPolicy } from "../../core/policy/bundled.ts"
import type { Decision, Policy } from "../../core/policy/types.ts"
import type { Risk } from "../../core/base/risk.ts"

export interface Attack {
  cmd: string
  decision: "allow" | "ask" | "deny"
  risk: Risk
  /** words the decision's reason must hold */
  reason: string
  note?: string
  /** a path the analysis must report as touched (after the links are followed) */
  touches?: string
  /** symlinks that exist when the command is decided: link path -> target */
  links?: Record<string, string>
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

/** A resolver that follows the given symlinks (a link to a directory takes what is below it along). */
export function linkResolver(links: Record<string, string> = {}): (path: string) => string {
  return (p) => {
    // a link to / (`x= -> /`) leads x=/home/dev/.netrc to /home/dev/.netrc, as the kernel resolves it
    for (const [from, to] of Object.entries(links)) if (p === from || p.startsWith(from + "/")) return to.replace(/\/$/, "") + p.slice(from.length) || "/"
    return p
  }
}

/** decide() for a shell command under the bundled default policy, in ATTACK_CONTEXT, as prepareCall
 *  would build the call: touched paths followed through the symlinks. */
export async function decideDefault(cmd: string, links?: Record<string, string>): Promise<Decision> {
  return decideUnder(policy, cmd, links)
}

/** The same under another policy (a bundled one: `ci` auto-approves medium). */
export async function decideUnder(p: Policy, cmd: string, links?: Record<string, string>): Promise<Decision & { paths: string[] }> {
  const realpath = linkResolver(links)
  const shell = await analyzeShell(cmd, { ...ATTACK_CONTEXT, overrides: p.risk.overrides, realpath })
  const { cwd, workspace, home } = ATTACK_CONTEXT
  const paths = shell.paths.map((x) => ({ ...x, path: realpath(x.path) }))
  const d = decide(p, { tool: "shell", args: { command: cmd }, cwd, workspace, home, tmpDirs: ["/tmp"], shell, paths }, { grants: [] })
  return { ...d, paths: paths.map((x) => x.path) }
}
