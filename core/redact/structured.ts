// Deep redaction of JSON-like data: values under sensitive keys become `***`, id-like keys keep
// their first and last 4 characters, every other string (and key) goes through the text redactor.
// Pure: returns a copy, never mutates its input.

export const MASK = "***"

/** Last word of a key (after splitting snake, kebab and camel case) that marks it sensitive. */
const SENSITIVE_ENDINGS = [
  "password", "passwd", "passphrase", "passwords", "secret", "secrets", "token", "apikey", "privatekey",
  "secretkey", "accesskey", "credential", "credentials", "cookie", "cookies", "authorization", "connectionstring",
]
const SENSITIVE_PAIRS = new Set([
  "api key", "private key", "secret key", "access key", "signing key", "encryption key", "master key",
  "session key", "auth key", "license key", "client key", "account key", "connection string", "set cookie",
])
const SENSITIVE_WHOLE = new Set(["auth", "dsn"])
/** Private members of a JSON Web Key (an object with `kty`): RFC 7518 6.2.2, 6.3.2, 6.4.1. */
const JWK_PRIVATE = new Set(["d", "p", "q", "dp", "dq", "qi", "k"])
const ID_OWNERS = new Set([
  "user", "account", "customer", "member", "tenant", "org", "organization", "subscription", "session",
  "device", "installation", "client", "owner", "person", "employee", "patient",
])
const ID_WHOLE = new Set(["userid", "accountid", "customerid", "sessionid", "email", "email address", "phone", "phone number"])

/** `api_key`, `apiKey`, `X-Api-Key`, `GITHUB_TOKEN`, `client_secret`, `Authorization`; not `max_tokens`. */
export function isSensitiveKey(key: string): boolean {
  const w = words(key)
  const last = w[w.length - 1]
  if (last === undefined) return false
  if (SENSITIVE_ENDINGS.some((e) => last.endsWith(e))) return true
  if (w.length >= 2 && (last === "pass" || last === "pwd")) return true
  return SENSITIVE_WHOLE.has(w.join(" ")) || (w.length >= 2 && SENSITIVE_PAIRS.has(`${w[w.length - 2]} ${last}`))
}

/** `user_id`, `accountId`, `session_id`, `email`: kept recognisable, not readable. */
export function isIdKey(key: string): boolean {
  const w = words(key)
  if (ID_WHOLE.has(w.join(" "))) return true
  return w.length >= 2 && w[w.length - 1] === "id" && ID_OWNERS.has(w[w.length - 2]!)
}

/** First and last 4 characters when at least 8 stay hidden; otherwise nothing. */
export function maskId(value: string): string {
  return value.length >= 16 ? `${value.slice(0, 4)}${MASK}${value.slice(-4)}` : MASK
}

/** An argv with the secrets of its arguments hidden, or undefined (see argv.ts). */
export type ArgvRedactor = (argv: readonly string[]) => string[] | undefined

export interface Commands {
  argv: ArgvRedactor
  /** a shell command string (a `command` field), redacted with what reading it as shell adds */
  shell: (command: string) => string
}

const NO_COMMANDS: Commands = { argv: () => undefined, shell: (s) => s }

export function redactValue<T>(value: T, text: (s: string) => string, commands: Commands = NO_COMMANDS): T {
  return walk(value, { text, argv: commands.argv, shell: commands.shell, seen: new WeakSet() }) as T
}

interface Walk {
  text: (s: string) => string
  argv: ArgvRedactor
  shell: (command: string) => string
  seen: WeakSet<object>
}

/** `{ command: "mysql", args: ["-pX"] }`: a program and its arguments given apart (exec-style tools). */
const PROGRAM_KEYS = ["command", "cmd", "program", "executable", "file"]
const ARGS_KEYS = ["args", "argv", "arguments"]

function walk(v: unknown, w: Walk): unknown {
  const { text, seen } = w
  if (typeof v === "string") return text(v)
  if (v === null || typeof v !== "object") return v
  if (seen.has(v)) return "[Circular]"
  seen.add(v)
  try {
    if (Array.isArray(v)) return walkArray(v, w)
    if (v instanceof Date) return new Date(v.getTime())
    if (ArrayBuffer.isView(v)) return v
    if (v instanceof Error) return { name: v.name, message: text(v.message), stack: v.stack && text(v.stack) }
    const src = v as Record<string, unknown>
    // `{ name: "DB_PASSWORD", value: "..." }` (k8s env, form fields) hides `value` like a sensitive key
    const namedSecret = [src.name, src.key].some((n) => typeof n === "string" && isSensitiveKey(n))
    const jwk = typeof src.kty === "string"
    const argvKey = argsOf(src, w)
    const out: Record<string, unknown> = {}
    for (const [k, x] of Object.entries(src)) {
      const sensitive = isSensitiveKey(k) || (namedSecret && k === "value") || (jwk && JWK_PRIVATE.has(k))
      const value = argvKey && k === argvKey.key ? argvKey.args : x
      const shellCommand = k === "command" && typeof value === "string"
      const redacted = sensitive ? mask(value) : isIdKey(k) ? maskIdValue(value, w) : shellCommand ? w.shell(value) : walk(value, w)
      // an own "__proto__" key (JSON.parse makes them) must stay data, not become the prototype
      Object.defineProperty(out, text(k), { value: redacted, enumerable: true, writable: true, configurable: true })
    }
    return out
  } finally {
    seen.delete(v)
  }
}

function walkArray(v: unknown[], w: Walk): unknown[] {
  // header pairs: [["Authorization", "Bearer ..."], ...]
  if (v.length === 2 && typeof v[0] === "string" && isSensitiveKey(v[0])) return [w.text(v[0]), mask(v[1])]
  // an argv: ["sshpass", "-p", "secret", "ssh", "host"]
  const argv = v.length >= 2 && v.every((x) => typeof x === "string") ? w.argv(v as string[]) : undefined
  return (argv ?? v).map((x) => walk(x, w))
}

/** The arguments array of `{ command: "mysql", args: ["-pX"] }` with its secrets hidden. */
function argsOf(src: Record<string, unknown>, w: Walk): { key: string; args: string[] } | undefined {
  const program = PROGRAM_KEYS.map((k) => src[k]).find((p) => typeof p === "string")
  if (typeof program !== "string") return undefined
  for (const key of ARGS_KEYS) {
    const args = src[key]
    if (!Array.isArray(args) || !args.every((a) => typeof a === "string")) continue
    const hidden = w.argv([program, ...args])
    return hidden ? { key, args: hidden.slice(1) } : undefined
  }
  return undefined
}

function mask(v: unknown): unknown {
  // absent, empty and yes/no values hide nothing and say something useful
  if (v === null || v === undefined || typeof v === "boolean" || v === "") return v
  return MASK
}

function maskIdValue(v: unknown, w: Walk): unknown {
  if (typeof v === "string") return maskId(v)
  if (typeof v === "number" || typeof v === "bigint") return maskId(String(v))
  return walk(v, w)
}

// a key is split for isSensitiveKey and again for isIdKey, and the same keys come back row after row
const split = new Map<string, readonly string[]>()

function words(key: string): readonly string[] {
  let w = split.get(key)
  if (w !== undefined) return w
  w = splitKey(key)
  if (split.size >= 1024) split.clear()
  split.set(key, w)
  return w
}

function splitKey(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
}
