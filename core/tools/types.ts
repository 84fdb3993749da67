// The Tool contract and the one result envelope every tool call produces (DESIGN section 6).
import type { z } from "zod"
import type { Risk } from "../policy/risk.ts"

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
  /** a process tool started its process group (recorded with the call, for resume after a crash) */
  onProcess?(info: { pgid: number }): void
  /** the main process exited with this status (recorded at once, before output is drained) */
  onExit?(exitCode: number): void
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
