// Test helpers: policies from YAML text, calls prepared as the runner would (no symlinks to resolve).
import type { Layer } from "../../core/policy/layer.ts"
import type { LayerName, Policy, Call } from "../../core/policy/types.ts"
import { parsePolicy } from "../../core/policy/parse.ts"
import { mergePolicy } from "../../core/policy/merge.ts"
import { bundledLayer } from "../../core/policy/bundled.ts"
import { prepareCall } from "../../core/policy/prepare.ts"
import type { Risk } from "../../core/base/risk.ts"

export const WS = "/work/repo"
export const HOME = "/home/dev"

export async function layer(yaml: string, opts: { name?: LayerName; trusted?: boolean; file?: string } = {}): Promise<Layer> {
  const name = opts.name ?? "workspace"
  return parsePolicy(yaml, opts.file ?? `${WS}/.ccode/policy.yaml`, { name, trusted: opts.trusted ?? true })
}

export async function policyOf(...layers: (string | Layer)[]): Promise<Policy> {
  const built = await Promise.all(layers.map((l) => (typeof l === "string" ? layer(l) : l)))
  return mergePolicy(built, bundledLayer)
}

export function shellCall(command: string, cwd = WS): Promise<Call> {
  return prepareCall("shell", { command }, { cwd, workspace: WS, home: HOME, realpath: (p) => p, tmpDirs: ["/tmp"] })
}

export function toolCall(tool: string, args: Record<string, unknown>, toolRisk?: Risk): Promise<Call> {
  return prepareCall(tool, args, { cwd: WS, workspace: WS, home: HOME, realpath: (p) => p, tmpDirs: ["/tmp"], toolRisk })
}

/** git in `cwd` with a fixed identity and branch name, no system config; its trimmed output (throws on failure). */
export function gitIn(cwd: string, ...args: string[]): string {
  const r = Bun.spawnSync(["git", "-c", "user.name=a", "-c", "user.email=a@x", "-c", "init.defaultBranch=main", ...args], { cwd, stderr: "pipe", env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1" } })
  if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr.toString()}`)
  return r.stdout.toString().trim()
}
