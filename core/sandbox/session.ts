// The sandbox of one run: decided once before the run starts (does it work, must it), then applied
// to every process-running call. The only place that turns a spawn into a sandboxed spawn.
import { lstatSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { basename, dirname, join, relative, resolve } from "node:path"
import type { SandboxPolicy } from "../policy/types.ts"
import type { ToolResult } from "../tools/types.ts"
import { bwrapArgv } from "./args.ts"
import { blockedBySandbox } from "./blocked.ts"
import { expandHome, isInside } from "../base/paths.ts"
import { expandPath, sandboxLayout } from "./layout.ts"
import { pinWritable } from "./writable.ts"
import { probeSandbox } from "./probe.ts"
import { missingPlantable, PLANTABLE, planted, setAside } from "./planted.ts"
import { changedLinks, putBack, type WatchedLink } from "./links.ts"
import { madeSince, unmadeProtected, type Unmade } from "./unmade.ts"
import { appearedSince, hostCodePaths, type Watched } from "./hostcode.ts"
import { setIdArches, setIdFilter } from "./setid-filter.ts"
import { HIDDEN_PATHS, READ_ONLY_PATHS, type OwnSandboxPaths } from "./defaults.ts"
import { parseAllowlist } from "../base/hosts.ts"
import { ccodeCommand, networkOf, type NetworkListener } from "./network.ts"
import { sharedSandbox } from "./shared.ts"
import type { ProcessTable, SandboxLayout, SandboxProbe, SandboxProxy } from "./types.ts"

/** How a run stands with the sandbox: used (`bwrap` set), off by policy, or unavailable with the reason. */
export interface SandboxStatus {
  mode: SandboxPolicy["mode"]
  /** set when calls run inside */
  bwrap?: string
  /** why calls run outside (mode off, or auto on a machine where it does not work) */
  reason?: string
  /** said once per run: e.g. a host allowlist enforced as no network */
  notes: string[]
}

/** `required` and no working sandbox: a configuration error (exit 2) raised before anything runs. */
export class SandboxUnavailable extends Error {
  readonly exitCode = 2
}

/** Decide the run's sandbox; `required` on a machine without a working sandbox throws (exit 2, nothing ran). */
export async function sandboxStatus(policy: SandboxPolicy, path: string | undefined, workspace: string): Promise<SandboxStatus> {
  if (policy.mode === "off") return { mode: "off", reason: "sandbox.mode is off", notes: [] }
  const found = await probeSandbox(path)
  // a "bwrap" the workspace itself provides could be anything: a sandbox cannot come from what it confines
  const probe: SandboxProbe = found.ok && isInside(workspace, realpathSync(found.bwrap))
    ? { ok: false, reason: `the bwrap found on PATH (${found.bwrap}) is inside the workspace; install bubblewrap system-wide` }
    : found
  if (!probe.ok) {
    if (policy.mode === "required") throw new SandboxUnavailable(`sandbox.mode is required but the OS sandbox is unavailable: ${probe.reason}`)
    return { mode: policy.mode, reason: probe.reason, notes: [] }
  }
  const rules = Array.isArray(policy.network) ? parseAllowlist(policy.network) : []
  const notes = typeof rules === "string" ? [`sandbox.network: ${rules}; calls get no network at all`] : []
  return { mode: policy.mode, bwrap: probe.bwrap, notes }
}

/** What a tool's spawn needs from the run's sandbox (ToolContext.sandbox). */
export interface Sandbox {
  /** the argv and environment to spawn instead of the given ones */
  wrap(argv: readonly string[], spawn: { cwd: string; env: Record<string, string> }): Wrapped
  /**
   * a failed result whose output shows the sandbox stopped it, said so (not retried: it would be stopped
   * again); ends the call's network proxy (every call's when no call id is given)
   */
  explain(result: ToolResult, cwd: string, callId?: string): ToolResult
  /** where every connection through a host allowlist's proxy is reported (the run's events and audit) */
  onNetwork(listener: NetworkListener): void
  /** the same sandbox with another folder (a preview's scratch copy) as the only writable workspace */
  within(workspace: string): Sandbox
  /** the run's folder under CCODE_HOME (previews keep their scratch copies there) */
  runDir: string
  /** the run is over: its shared sandbox (live.ts), if one was started, is stopped with all inside */
  close(): Promise<void>
}

/** A spawn made sandboxed. `release`, when set, must be awaited once the call's own processes are killed. */
export interface Wrapped {
  argv: string[]
  env: Record<string, string>
  /** the call joined the run's shared sandbox: ends everything it left in there and frees it for the next call */
  release?: () => Promise<void>
}

export interface RunSandboxInput {
  status: SandboxStatus
  policy: SandboxPolicy
  protectedGlobs: readonly string[]
  workspace: string
  home: string
  /** the run's own folder under CCODE_HOME; its tmp/ is the writable temp dir */
  runDir: string
  /** where the proxies' unix sockets live (CCODE_HOME/net): hidden from every sandbox */
  netDir?: string
  /** the step processes' table: given, the run's calls share one live sandbox (live.ts) */
  processes?: ProcessTable
  /** ccode's own folders and files (data folder, database, configuration): hidden from every call */
  own?: OwnSandboxPaths
  /** a preview's scratch copy: the workspace it copies (its hidden paths are hidden in the copy too) */
  origin?: string
}

export function runSandbox(input: RunSandboxInput): Sandbox | undefined {
  const bwrap = input.status.bwrap
  return bwrap ? sandboxAt(input, bwrap) : undefined
}

function sandboxAt(input: RunSandboxInput, bwrap: string, net = networkOf(input)): Sandbox {
  const tmpDir = join(input.runDir, "tmp")
  // where each sandbox.writable path leads now, before any step ran: a link planted later grants nothing
  const writablePins = pinWritable(input.policy.writable.map((p) => expandPath(p, input.home, input.workspace)))
  const ownList = input.own ? [...input.own.dirs, ...input.own.files] : []
  // resolved per call: a path a step created (.claude/) is protected from the next step on
  const layout = (cwd: string, env?: Record<string, string>, proxy?: SandboxProxy, hostCode?: string[]): SandboxLayout =>
    sandboxLayout({
      bwrap, policy: input.policy, protectedGlobs: input.protectedGlobs, workspace: input.workspace, tmpDir, cwd, home: input.home, env, netDir: input.netDir, proxy,
      writablePins, own: ownList, origin: input.origin, seccomp: filterFile(input.runDir), hostCode,
    })
  // a folder the policy makes writable (writable: [.git]) may be created by a step
  const allowed = input.policy.writable.map((p) => resolve(input.workspace, expandHome(p, input.home)))
  let missing: string[] = []
  // the links on the way to read-only paths as first seen in this run (links.ts): put back when a call changed them
  const watched = new Map<string, WatchedLink>()
  // the protected paths beyond the workspace's plantable folders: the home's rc files and config, ccode's own folders
  const plantable = PLANTABLE.map((name) => join(input.workspace, name))
  // (a path the policy makes writable, writable: [.git] or [~/.config], may be made there: the user's choice; ccode's own never)
  // the credential locations too (bwrap hides only what exists): a ~/.kube, ~/.aws or ~/.docker a step made in a
  // home that is a writable root would be read by the user's host tools as config that runs programs
  const guarded = [...new Set([
    ...[...READ_ONLY_PATHS, ...HIDDEN_PATHS].map((p) => expandPath(p, input.home, input.workspace)).filter((p) => !allowed.some((w) => isInside(w, p) && w !== input.workspace)),
    ...(input.own?.dirs ?? []),
  ])].filter((p) => !plantable.includes(p))
  let unmade: Unmade[] = []
  // the host-code places of the last call (hostcode.ts): what explain() names as read-only
  let hostCode: string[] = []
  let watchedPlaces: Watched[] = []
  let laidWritable: string[] = []
  const shared = sharedSandbox([...ccodeCommand(), "__sandbox-hold"], input.processes)
  return {
    wrap(argv, spawn) {
      mkdirSync(tmpDir, { recursive: true, mode: 0o700 })
      // made before any run needs it, so it is hidden from every call from the start: a long call must
      // not find another run's proxy socket in a folder that appeared after its sandbox was laid out
      if (input.netDir) mkdirSync(input.netDir, { recursive: true, mode: 0o700 })
      missing = missingPlantable(input.workspace, allowed)
      const proxy = net.open(spawn.env.CCODE_CALL_ID)
      const env = { ...spawn.env, TMPDIR: tmpDir, ...(proxy ? net.env : {}) }
      // looked up at every call: a hooks folder or an included config the repository names now
      watchedPlaces = []
      const found = hostCodePaths(input.workspace, input.home, process.env, [input.workspace, ...allowed], watchedPlaces).filter((p) => !allowed.some((w) => isInside(w, p) && w !== input.workspace) && !plantable.includes(p))
      // the same array while nothing changed: the layout's lookups of it are remembered (present.ts)
      if (found.join("\0") !== hostCode.join("\0")) hostCode = found
      const laid = layout(spawn.cwd, spawn.env, proxy, hostCode)
      for (const link of laid.links ?? []) if (!watched.has(link.path)) watched.set(link.path, link)
      unmade = unmadeProtected([...new Set([...guarded, ...hostCode])], laid.writable)
      laidWritable = laid.writable
      const joined = shared.join(laid)
      if (joined) return { argv: [...joined.prefix, ...argv], env, release: joined.release }
      return { argv: bwrapArgv(laid, argv), env }
    },
    explain(result, cwd, callId) {
      const refused = net.close(callId)
      const made = planted(input.workspace, missing)
      missing = []
      const stamp = String(Date.now())
      // moved aside before anything (the user's next git command, another agent) can read it
      const aside = made.length ? setAside(input.workspace, made, stamp) : []
      // after the workspace's folders: a planted .git took its .git/hooks with it
      // (a python3.13 folder made in ~/.local/lib holds a user site-packages as much as a missing path would)
      const madeProtected = [...madeSince(unmade), ...appearedSince(watchedPlaces.filter((w) => laidWritable.some((r) => isInside(r, w.dir))))]
      unmade = []
      watchedPlaces = []
      const asideProtected = madeProtected.map((p) => join(dirname(p), setAside(dirname(p), [basename(p)], stamp)[0]!))
      if (made.length) {
        const message = `blocked by the sandbox: the step created ${made.join(", ")} in the workspace, where code-running configuration lives ` +
          `(a repository's config or an agent's hooks run programs outside the sandbox); ${[...aside, ...asideProtected].map(asideNote).join("; ")}. ` +
          `To let steps create it, add it to sandbox.writable`
        return { ...result, status: "error", error: { code: "SANDBOX_BLOCKED", type: "denied", message } }
      }
      if (madeProtected.length) {
        const message = `blocked by the sandbox: the step created ${madeProtected.join(", ")}, which the sandbox keeps read-only or hidden (a shell's startup file, ` +
          `ccode's or git's configuration, hooks, a credential folder whose config runs programs: the next shell, git command, ccode run ` +
          `or cloud CLI would run what it says, outside the sandbox); ` +
          `${asideProtected.map(asideNote).join("; ")}`
        return { ...result, status: "error", error: { code: "SANDBOX_BLOCKED", type: "denied", message } }
      }
      const relinked = relink(changedLinks(watched.values()), input.workspace)
      if (relinked) return { ...result, status: "error", error: { code: "SANDBOX_BLOCKED", type: "denied", message: relinked } }
      // only a command that ran and failed: a timeout, a cancel or an interrupt keeps its own meaning
      if (result.status === "ok" || result.error?.code !== "EXIT_CODE") return result
      const blocked = refused ? { what: `network access to ${refused}`, hint: "add the host to sandbox.network if it is meant to" } : blockedBySandbox(result.text, layout(cwd, undefined, net.placeholder, hostCode), input.home)
      if (!blocked) return result
      const next = blocked.hint ?? "widen the policy's sandbox section if it is meant to"
      const message = `blocked by the sandbox: ${blocked.what} (${result.error?.message ?? "failed"}); ${next}`
      return { ...result, error: { code: "SANDBOX_BLOCKED", type: "denied", message } }
    },
    // a preview's scratch copy is new at every call: nothing to share
    within: (workspace) => sandboxAt({ ...input, workspace, origin: input.origin ?? input.workspace, processes: undefined }, bwrap, net),
    onNetwork: (listener) => net.listen(listener),
    runDir: input.runDir,
    close: () => shared.close(),
  }
}

// "moved aside to .git.blocked-1-ab12 for review", or for an entry no name could be taken for, "deleted .git"
function asideNote(aside: string): string {
  return aside.endsWith(" (deleted)") ? `deleted ${aside.slice(0, -" (deleted)".length)} (it could not be moved aside)` : `moved aside to ${aside} for review`
}

// read-only paths' links a call replaced or removed: put back, what stood there moved aside; the message, or undefined
function relink(changed: WatchedLink[], workspace: string): string | undefined {
  if (!changed.length) return undefined
  const stamp = String(Date.now())
  const said = changed.map((link) => {
    const name = relative(workspace, link.path) || link.path
    try {
      const aside = putBack(link, stamp)
      return aside ? `${name} (what the step put there moved aside to ${aside})` : `${name} (removed)`
    } catch (error) {
      return `${name} (not put back: ${(error as Error).message}; restore the link to ${link.target} by hand)`
    }
  })
  return `blocked by the sandbox: the step replaced the read-only link ${said.join(", ")}; the link is back as it was. ` +
    `Read-only paths stay as they are, links included: change them outside ccode if that is meant`
}

/** The one call a process-running tool makes: spawn through the sandbox when the run has one. */
export function sandboxed(sandbox: Sandbox | undefined, argv: readonly string[], spawn: { cwd: string; env: Record<string, string> }): Wrapped {
  return sandbox ? sandbox.wrap(argv, spawn) : { argv: [...argv], env: spawn.env }
}

// the seccomp filter's bytes in the run's folder (hidden from every call with ccode's data folder), looked
// at before each call and written again when they are not the filter's (a link is replaced, never followed)
function filterFile(runDir: string): string | undefined {
  const arches = setIdArches()
  if (!arches) return undefined
  const path = join(runDir, "setid.bpf")
  const bytes = (filters ??= setIdFilter(arches))
  let same = false
  try {
    same = !lstatSync(path).isSymbolicLink() && readFileSync(path).equals(bytes)
  } catch {
    same = false
  }
  if (!same) {
    mkdirSync(runDir, { recursive: true, mode: 0o700 })
    rmSync(path, { force: true })
    writeFileSync(path, bytes, { mode: 0o600, flag: "wx" })
  }
  return path
}
let filters: Buffer | undefined
