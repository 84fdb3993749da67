// The one mapping from errors to exit codes (the table in README, "Exit codes") and to what the user reads.
import { storeProblem } from "../core/store/problem.ts"

/** Bad flags or arguments: exit 2, nothing was run. */
export class UsageError extends Error {
  readonly exitCode = 2
  override name = "UsageError"
}

/** A command that decided its own exit code (and already printed what it had to say). */
export class Exit extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`)
  }
}

// Errors of bad input carry `exitCode = 2` (class names do not survive minification); citty's own
// argument errors are CLIError by name.
export function exitCodeFor(error: unknown): number {
  if (error instanceof Exit) return error.code
  if (storeProblem(error)) return 2
  const code = (error as { exitCode?: unknown })?.exitCode
  if (typeof code === "number") return code
  if ((error as Error)?.name === "CLIError") return 2
  return 1
}

export function describeError(error: unknown): string {
  error = storeProblem(error) ?? error
  if (error instanceof Error) {
    if (exitCodeFor(error) === 2) return error.message
    return `internal error: ${error.message}${process.env.CCODE_DEBUG ? `\n${error.stack}` : "\n(set CCODE_DEBUG=1 for the stack trace)"}`
  }
  return String(error)
}
