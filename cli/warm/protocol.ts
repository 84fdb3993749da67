// What a warm hook client and its server say over the socket: one JSON line each way. Pure: no fs, no
// sockets. Anything that is not exactly a well-formed message is undefined, and the caller decides
// in-process (fails closed), so a truncated or forged answer can never become an allow.

/** The request: everything a fresh `ccode hook` process would see of its caller. */
export interface WarmRequest {
  v: 1
  /** argv after `hook`, without --warm */
  argv: string[]
  env: Record<string, string>
  cwd: string
  umask: number
  stdin: string
}

/** The answer: what the hook process printed and its exit code, byte for byte (base64). */
export interface WarmAnswer {
  v: 1
  code: number
  stdout: string
  stderr: string
}

/** Largest request the server reads (a Write tool's payload holds the whole file). */
export const MAX_REQUEST = 64 * 1024 * 1024
/** Largest answer the client reads: a hook prints a short JSON answer or an error line. */
export const MAX_ANSWER = 4 * 1024 * 1024

export function encodeRequest(req: Omit<WarmRequest, "v">): string {
  return `${JSON.stringify({ v: 1, ...req })}\n`
}

export function encodeAnswer(code: number, stdout: Uint8Array, stderr: Uint8Array): string {
  return `${JSON.stringify({ v: 1, code, stdout: Buffer.from(stdout).toString("base64"), stderr: Buffer.from(stderr).toString("base64") })}\n`
}

/** The request in one complete line; undefined when it is not one. */
export function decodeRequest(line: string): WarmRequest | undefined {
  const msg = parse(line)
  if (!msg || msg.v !== 1) return undefined
  const { argv, env, cwd, umask, stdin } = msg
  if (!Array.isArray(argv) || !argv.every((a) => typeof a === "string")) return undefined
  if (!env || typeof env !== "object" || Array.isArray(env) || !Object.values(env).every((v) => typeof v === "string")) return undefined
  if (typeof cwd !== "string" || !cwd.startsWith("/") || cwd.includes("\0")) return undefined
  if (!Number.isInteger(umask) || (umask as number) < 0 || (umask as number) > 0o777) return undefined
  if (typeof stdin !== "string") return undefined
  return { v: 1, argv: argv as string[], env: env as Record<string, string>, cwd, umask: umask as number, stdin }
}

/** A hook's answer: exit 0 (decided, answer on stdout) or 2 (blocked, reason on stderr) and nothing else;
 *  any other code (a crashed or killed process) is no answer. */
export function decodeAnswer(line: string): { code: 0 | 2; stdout: Buffer; stderr: Buffer } | undefined {
  const msg = parse(line)
  if (!msg || msg.v !== 1 || (msg.code !== 0 && msg.code !== 2)) return undefined
  if (typeof msg.stdout !== "string" || typeof msg.stderr !== "string" || !BASE64.test(msg.stdout) || !BASE64.test(msg.stderr)) return undefined
  const stdout = Buffer.from(msg.stdout, "base64")
  const stderr = Buffer.from(msg.stderr, "base64")
  // exit 0 with nothing printed is a silent allow only because the hook process said so (code and both
  // streams arrived whole); a block always says why
  if (msg.code === 2 && stderr.length === 0) return undefined
  return { code: msg.code, stdout, stderr }
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/

function parse(line: string): Record<string, unknown> | undefined {
  if (!line.endsWith("\n") || line.indexOf("\n") !== line.length - 1) return undefined
  try {
    const value: unknown = JSON.parse(line)
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}
