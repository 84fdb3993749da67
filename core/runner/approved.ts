// What a person approved, bound to the call they were shown: a digest of the tool, its arguments, the
// resolved working directory (and which folder that is: device and inode) and the policy's risk,
// reason and rules. An approval given while a run waited applies only to a call that digests the same
// when it finally runs: a working directory swapped for a symlink meanwhile, or a call now judged at
// another risk, is asked again. I/O: one stat of the working directory.
import { statSync } from "node:fs"
import type { Call, Decision } from "../policy/types.ts"

export function approvalDigest(call: Pick<Call, "tool" | "cwd">, args: Record<string, unknown>, decision: Pick<Decision, "risk" | "reason" | "rules">): string {
  const shown = { tool: call.tool, args, cwd: call.cwd, folder: folderIdentity(call.cwd), risk: decision.risk, reason: decision.reason, rules: decision.rules }
  return new Bun.CryptoHasher("sha256").update(JSON.stringify(shown)).digest("hex")
}

/** Why an approval does not apply to the call as decided now, or undefined when it does. */
export function approvalChanged(shown: string | undefined, now: string): string | undefined {
  if (shown === undefined || shown === now) return undefined
  return "the call is not what was approved (its working directory, arguments or risk changed while it waited); asked again"
}

function folderIdentity(path: string): string {
  try {
    const stat = statSync(path)
    return `${stat.dev}:${stat.ino}`
  } catch {
    return "missing"
  }
}
