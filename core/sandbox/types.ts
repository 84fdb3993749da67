// What the sandbox is made of for one call: every path already resolved (realpath) and known to exist.
// Built at the edge (layout.ts), turned into bwrap's argv by a pure function (args.ts).
import type { WatchedLink } from "./links.ts"

export interface SandboxLayout {
  /** absolute path of the bwrap binary */
  bwrap: string
  /** where the command starts */
  cwd: string
  /** writable roots: the workspace, the run's temp dir, the policy's `writable` paths */
  writable: string[]
  /** existing paths inside writable roots that stay read-only */
  readOnly: string[]
  /**
   * the folders between a writable root and a read-only path, bound onto themselves: a mount point
   * cannot be renamed or removed, so `mv .git .git2 && mkdir -p .git/hooks` cannot step around it
   */
  pinned: string[]
  /** symlinks in writable folders on the way to read-only paths: checked after the call, put back when changed */
  links?: WatchedLink[]
  /**
   * existing paths that look empty: directories become an empty read-only tmpfs, files /dev/null; `own`:
   * one of ccode's own (its database changes under a live sandbox at every call: known by inode alone)
   */
  hidden: { path: string; dir: boolean; own?: true }[]
  /**
   * none: a network namespace of its own with only loopback; proxy: the same, plus the bridge to the
   * host allowlist's proxy (`proxy`); allow: the host's network
   */
  network: "none" | "allow" | "proxy"
  /** network proxy: the proxy's unix socket (bound into the sandbox), the bridge's port and command */
  proxy?: SandboxProxy
  /** the file of the seccomp filter that keeps set-user-ID and set-group-ID bits off every file (setid-filter.ts) */
  seccomp?: string
}

export interface SandboxProxy {
  socket: string
  port: number
  /** argv that runs `ccode __sandbox-bridge` (the binary itself, or bun + cli/main.ts from source) */
  bridge: string[]
}

/**
 * What a run's live sandbox (live.ts) needs from the process table of the tools that run steps, given
 * by the runner (the sandbox sits below the tools): its bwrap's group kept out of every step's
 * escapes, and the processes left in it found and waited for.
 */
export interface ProcessTable {
  track(tag: string, pgid: number, since: number): void
  forget(tag: string): void
  bootTicks(): number
  isLive(pid: number): boolean
  withDescendants(roots: number[]): number[]
}

/** Whether the sandbox works on this machine, and if not, why (said to the user as is). */
export type SandboxProbe = { ok: true; bwrap: string } | { ok: false; reason: string }
