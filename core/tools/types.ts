// The Tool contract and the one result envelope every tool call produces (status, text, data, error {code, type, message}, stats).
import type { z } from "zod"
import type { Risk } from "../base/risk.ts"
import type { Sandbox } from "../sandbox/session.ts"

export type ErrorType = "param" | "parse" | "execution" | "network" | "timeout" | "not_found" | "denied" | "circuit_open"

export interface ToolError {
  code: string
  type: ErrorType
  message: string
}

/** The envelope: whatever the tool, this is what the runner stores and drivers see. */
export interface ToolResult {
  status: "ok" | "error"
  text: string
  data?: unknown
  error?: ToolError
  stats: { duration_ms: number; bytes: number }
}

/** What a tool's run() returns; the runner wraps it into a ToolResult. */
export interface ToolOutput {
  text?: string
  data?: unknown
  /** a tool reports failure by returning an error (throwing works too: type execution) */
  error?: { code?: string; type?: ErrorType; message: string }
  /** bytes the tool produced, when `text` holds only part of them (head + tail) */
  bytes?: number
  /** the work ended by itself before any timeout or cancel: this is its real outcome, even if one fired since */
  settled?: boolean
}

export interface ToolContext {
  /** absolute working directory for this call */
  cwd: string
  /** absolute workspace root (realpath) */
  workspace: string
  env: Record<string, string>
  /** aborted on timeout, idle timeout or cancel */
  signal: AbortSignal
  /** streamed output (shown live, fed to the idle timer); redacted before display */
  log(chunk: string): void
  runId: string
  callId: string
  timeoutMs: number
  idleTimeoutMs: number
  /** resolve a path against cwd and confine it to the workspace when the policy says so (throws ToolFailure) */
  paths: { resolve(path: string, access: "read" | "write"): string }
  /** ask the person running ccode (or pause the run when nobody is there) */
  ask(question: string): Promise<string>
  /** the run's OS sandbox: a tool that starts processes spawns them through `sandboxed()` (core/sandbox) */
  sandbox?: Sandbox
  /** a process tool started its process group (recorded with the call, for resume after a crash) */
  onProcess?(info: { pgid: number }): void
  /** the main process exited with this status (recorded at once, before output is drained) */
  onExit?(exitCode: number): void
}

/** What a tool may do to the machine: the policy, snapshots and MCP annotations read this. */
export type Effect = "read" | "write" | "execute" | "network"

export type PathAccess = "read" | "write"

/** An argument that names a path, how the tool touches it, and the path used when it is left out. */
export interface PathArg {
  arg: string
  access: PathAccess
  /** the path when the argument is absent (e.g. "." for a listing) */
  default?: string
  /** the argument names a folder the tool reads below (a grant then covers the folder itself) */
  dir?: boolean
  /** the tool reads the content of every file below that folder (grep): a credential location below is read */
  contents?: boolean
}

/** A path a call touches, as its arguments give it (relative to the call's cwd, or absolute). */
export interface DeclaredPath {
  path: string
  access: PathAccess
  dir?: boolean
  contents?: boolean
}

export interface Tool<A = any> {
  /** snake_case; plugin tools may not shadow built-ins */
  name: string
  description: string
  args: z.ZodType<A>
  risk?: Risk | ((args: A, ctx: { cwd: string; workspace: string }) => Risk)
  /** a duration string or milliseconds */
  timeout?: string | number
  /** safe to re-run after a crash mid-call (read-only tools) */
  idempotent?: boolean
  /** what the tool may do; undeclared means anything (never read-only) */
  effects?: readonly Effect[]
  /**
   * the paths a call touches: arguments naming paths, or a function of the arguments. Path rules,
   * risk.paths, protected paths and confinement judge these. Undeclared: arguments named like
   * paths (path, file, dir, ...) are taken as paths, written unless the tool's effects are read-only.
   */
  paths?: readonly PathArg[] | ((args: A) => DeclaredPath[])
  run(args: A, ctx: ToolContext): Promise<ToolOutput>
}

/** A failure a tool raises on purpose, with a code and type for the envelope. */
export class ToolFailure extends Error {
  constructor(
    readonly code: string,
    readonly type: ErrorType,
    message: string,
  ) {
    super(message)
  }
}

export function defineTool<A>(tool: Tool<A>): Tool<A> {
  return tool
}
