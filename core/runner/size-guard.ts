// Snapshots of a plain folder (no git to say what matters) have limits: files over a size are left
// out of them, and a folder with too many files gets no snapshots at all unless the user raises the
// limit. Said once per run segment, never silently.
import { join } from "node:path"
import type { Fingerprint } from "../guards/index.ts"
import type { RunContext } from "./context.ts"

const MB = 1024 * 1024

export interface SizeLimits {
  /** CCODE_SNAPSHOT_MAX_FILES: a plain folder with more files than this gets no snapshots (default 200,000) */
  maxFiles: number
  /** CCODE_SNAPSHOT_MAX_FILE_MB: files bigger than this are left out of snapshots (default 50) */
  maxFileBytes: number
}

export function sizeLimits(env: Record<string, string | undefined>): SizeLimits {
  const number = (name: string, fallback: number) => {
    const value = Number(env[name])
    return env[name] !== undefined && Number.isFinite(value) && value > 0 ? value : fallback
  }
  return { maxFiles: number("CCODE_SNAPSHOT_MAX_FILES", 200_000), maxFileBytes: number("CCODE_SNAPSHOT_MAX_FILE_MB", 50) * MB }
}

/** What the limits say about a walked folder. Pure. */
export function judgeSize(fingerprint: Fingerprint, limits: SizeLimits): { refuse?: string; leaveOut: string[]; warning?: string } {
  if (fingerprint.kind !== "walk") return { leaveOut: [] }
  const paths = Object.keys(fingerprint.files)
  if (paths.length > limits.maxFiles) {
    const refuse = `undo is off for this run: ${fingerprint.root} is not a git repository and has ${paths.length} files, over the snapshot limit of ${limits.maxFiles} (raise it with CCODE_SNAPSHOT_MAX_FILES)`
    return { refuse, leaveOut: [] }
  }
  const big = paths.filter((p) => fingerprint.files[p]!.size > limits.maxFileBytes).sort()
  if (!big.length) return { leaveOut: [] }
  const shown = big.slice(0, 5).join(", ") + (big.length > 5 ? ` and ${big.length - 5} more` : "")
  const warning = `undo will not restore ${big.length} file(s) over ${Math.round(limits.maxFileBytes / MB)} MB (${shown}); raise the limit with CCODE_SNAPSHOT_MAX_FILE_MB`
  return { leaveOut: big.map((p) => join(fingerprint.root, p)), warning }
}

/** Apply the limits to this segment's snapshots, saying what they left out. */
export function applySizeLimits(ctx: RunContext, fingerprint: Fingerprint): void {
  if (!ctx.snapshots) return
  const judged = judgeSize(fingerprint, sizeLimits(process.env))
  const say = (message: string) => {
    ctx.reporter.output(ctx.runId, "", `warning: ${message}\n`)
    ctx.recorder.audit({ type: "error", actor: "system", action: "snapshot", result: "error", reason: message })
  }
  if (judged.refuse) {
    say(judged.refuse)
    ctx.snapshots = undefined
    return
  }
  if (judged.leaveOut.length) ctx.snapshots.snapshotter.leaveOut(judged.leaveOut)
  if (judged.warning) say(judged.warning)
}
