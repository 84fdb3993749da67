// Turns whatever a tool did into the one result envelope, and caps large outputs to head + tail.
import { ZodError } from "zod"
import { ToolFailure, type ErrorType, type ToolOutput, type ToolResult } from "./types.ts"

/** Outputs up to this size are kept whole; beyond it, head + tail with a marker. */
export const OUTPUT_CAP = 64 * 1024

export function capText(text: string, cap = OUTPUT_CAP): string {
  if (text.length <= cap) return text
  const half = Math.floor(cap / 2)
  const dropped = text.length - 2 * half
  return `${text.slice(0, half)}\n[... ${dropped} characters omitted ...]\n${text.slice(text.length - half)}`
}

export function okResult(output: ToolOutput, durationMs: number): ToolResult {
  const text = output.text ?? ""
  if (output.error) return errorResult(output.error.code ?? "TOOL_ERROR", output.error.type ?? "execution", output.error.message, durationMs, text, output.data, output.bytes)
  return { status: "ok", text: capText(text), data: output.data, stats: { duration_ms: Math.round(durationMs), bytes: output.bytes ?? byteLength(text) } }
}

export function errorResult(
  code: string,
  type: ErrorType,
  message: string,
  durationMs = 0,
  text = "",
  data?: unknown,
  bytes?: number,
): ToolResult {
  return {
    status: "error",
    text: capText(text || message),
    data,
    error: { code, type, message },
    stats: { duration_ms: Math.round(durationMs), bytes: bytes ?? byteLength(text) },
  }
}

/** Map anything thrown by a tool into an error envelope: never a crash. */
export function thrownResult(error: unknown, durationMs: number): ToolResult {
  if (error instanceof ToolFailure) return errorResult(error.code, error.type, error.message, durationMs)
  if (error instanceof ZodError) return errorResult("INVALID_PARAM", "param", describeZod(error), durationMs)
  const message = error instanceof Error ? error.message : String(error)
  const code = (error as { code?: unknown })?.code
  if (code === "ENOENT") return errorResult("NOT_FOUND", "not_found", message, durationMs)
  return errorResult("TOOL_ERROR", "execution", message, durationMs)
}

export function describeZod(error: ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.length ? issue.path.join(".") : "args"}: ${issue.message}`)
    .join("; ")
}

function byteLength(text: string): number {
  return Buffer.byteLength(text)
}
