// The one mapping from errors to exit codes (DESIGN section 2) and to what the user reads.

/** Bad flags or arguments: exit 2, nothing was run. */
export class UsageError extends Error {}

/** A command that decided its own exit code (and already printed what it had to say). */
export class Exit extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`)
  }
}

const USAGE_ERRORS = new Set(["ConfigError", "UsageError", "ResumeError", "RunNotFound", "StoreError", "PolicyError", "ToolClashError", "CLIError"])

export function exitCodeFor(error: unknown): number {
  if (error instanceof Exit) return error.code
  const name = (error as { constructor?: { name?: string }; name?: string })?.constructor?.name ?? ""
  if (USAGE_ERRORS.has(name) || USAGE_ERRORS.has((error as Error)?.name)) return 2
  return 1
}

export function describeError(error: unknown): string {
  if (error instanceof Error) {
    if (exitCodeFor(error) === 2) return error.message
    return `internal error: ${error.message}${process.env.CCODE_DEBUG ? `\n${error.stack}` : "\n(set CCODE_DEBUG=1 for the stack trace)"}`
  }
  return String(error)
}
