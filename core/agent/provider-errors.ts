// What went wrong talking to the model, in the user's terms: auth, rate limit, network, timeout,
// server, bad request. No I/O, duck-typed (no SDK import), so it costs nothing at startup.

export type ProviderErrorKind = "auth" | "rate_limit" | "network" | "timeout" | "server" | "bad_request" | "cancelled"

export interface ProviderFailure {
  kind: ProviderErrorKind
  /** HTTP status when the server answered */
  status?: number
  message: string
  /** the server's Retry-After, in ms */
  retryAfterMs?: number
}

interface ErrorLike {
  name?: string
  message?: string
  code?: string
  statusCode?: number
  responseHeaders?: Record<string, string>
  responseBody?: string
  cause?: unknown
  lastError?: unknown
}

const NETWORK_CODES = /^(ConnectionRefused|ConnectionClosed|FailedToOpenSocket|ECONNRESET|ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EPIPE|ETIMEDOUT|UND_ERR_\w+)$/

export function classifyProviderError(error: unknown, cancelled = false): ProviderFailure {
  const e = unwrap(error)
  const message = describe(e)
  if (cancelled) return { kind: "cancelled", message }
  const status = typeof e.statusCode === "number" ? e.statusCode : undefined
  if (status !== undefined) {
    if (status === 401 || status === 403) return { kind: "auth", status, message }
    if (status === 429) return { kind: "rate_limit", status, message, retryAfterMs: retryAfter(e.responseHeaders) }
    if (status === 408) return { kind: "timeout", status, message }
    if (status >= 500) return { kind: "server", status, message, retryAfterMs: retryAfter(e.responseHeaders) }
    return { kind: "bad_request", status, message }
  }
  if (e.name === "TimeoutError" || e.code === "ETIMEDOUT" || /timed? ?out/i.test(e.message ?? "")) return { kind: "timeout", message }
  if (e.name === "AbortError") return { kind: "cancelled", message }
  if (hasNetworkCause(e) || /cannot connect|unable to connect|fetch failed|socket|network/i.test(e.message ?? "")) return { kind: "network", message }
  return { kind: "bad_request", message }
}

/** Worth another try after a pause. */
export function isTransientFailure(kind: ProviderErrorKind): boolean {
  return kind === "rate_limit" || kind === "network" || kind === "timeout" || kind === "server"
}

/** The line a user reads: what failed and what to do about it. */
export function failureMessage(failure: ProviderFailure, provider: string, keyEnv: string | undefined): string {
  const http = failure.status ? ` (HTTP ${failure.status})` : ""
  const said = failure.message.replace(/[\s.]+$/, "") // the server's sentence, without a full stop of its own
  const end = /[?!]$/.test(said) ? "" : "."
  switch (failure.kind) {
    case "auth":
      return keyEnv
        ? `the ${provider} provider refused the API key${http}: ${said}${end} Set ${keyEnv} to a valid key (agent.api_key_env names it), then run the task again`
        : `the ${provider} provider wants an API key${http}: ${said}${end} Put the key in an environment variable and name it in the task's agent.api_key_env`
    case "rate_limit":
      return `the ${provider} provider kept rate-limiting the requests${http}: ${said}`
    case "network":
      return `cannot reach the ${provider} provider: ${said}${end} Check agent.base_url and that the server is running`
    case "timeout":
      return `the ${provider} provider did not answer in time${http}: ${said}`
    case "server":
      return `the ${provider} provider kept failing${http}: ${said}`
    case "bad_request":
      return `the ${provider} provider rejected the request${http}: ${said}${end} Check agent.model and agent.base_url`
    case "cancelled":
      return "the model request was cancelled"
  }
}

function unwrap(error: unknown): ErrorLike {
  let e = (error ?? {}) as ErrorLike
  // a RetryError (SDK retries) carries the real failure as lastError
  for (let i = 0; i < 3 && e.lastError; i++) e = e.lastError as ErrorLike
  return typeof e === "object" ? e : { message: String(e) }
}

function describe(e: ErrorLike): string {
  const body = serverMessage(e.responseBody)
  return (body ?? e.message ?? String(e)).replace(/\s+/g, " ").trim().slice(0, 300)
}

// OpenAI: {"error": {"message"}}, Anthropic: {"type":"error","error":{"message"}}, others: {"message"} or text
function serverMessage(body: string | undefined): string | undefined {
  if (!body) return undefined
  try {
    const parsed = JSON.parse(body) as { error?: { message?: string } | string; message?: string }
    if (typeof parsed.error === "string") return parsed.error
    return parsed.error?.message ?? parsed.message ?? undefined
  } catch {
    return body.length < 200 ? body : undefined
  }
}

function retryAfter(headers: Record<string, string> | undefined): number | undefined {
  if (!headers) return undefined
  const ms = headers["retry-after-ms"]
  if (ms && Number.isFinite(Number(ms))) return Number(ms)
  const value = headers["retry-after"]
  if (!value) return undefined
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Number(value) * 1000
  const at = Date.parse(value)
  return Number.isFinite(at) ? Math.max(0, at - Date.now()) : undefined
}

function hasNetworkCause(e: ErrorLike): boolean {
  let current: unknown = e
  for (let i = 0; i < 5 && current && typeof current === "object"; i++) {
    const code = (current as ErrorLike).code
    if (typeof code === "string" && NETWORK_CODES.test(code)) return true
    current = (current as ErrorLike).cause
  }
  return false
}
