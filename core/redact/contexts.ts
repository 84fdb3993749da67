// Secrets recognisable by what surrounds them: private key blocks, passwords in URLs, auth headers,
// `password=` / `secret:` assignments in text, JSON and YAML, password flags. Data and small pure checks.
import type { Rule } from "./spans.ts"

// A key block, multi-line or one line with `\n` escapes (JSON, twice-escaped JSON), also with the
// decorations of the tool that printed it: `cat -A` and `sed -n l` (`$`, `^M`, `\` at a wrap),
// `grep -rn` (`keys/id_rsa:12:`), `cat -n`. An unterminated block (truncated output) is hidden up to
// the first character that cannot be part of it.
const PEM_BODY = String.raw`[A-Za-z0-9+/=:,. \t\r\n\\$^_~-]`
const PEM = new RegExp(
  String.raw`-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----` +
    `(?:${PEM_BODY}{0,16384}?` + String.raw`-----END[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----` +
    `|${PEM_BODY}{0,16384})`,
  "g",
)

// `key = value`, `key: value`, `"key": "value"`, `\"key\": \"value\"`, `<key>value</`
export const KEY_END = String.raw`(?:\\{0,3}["'])?`
export const SEP = String.raw`(?:[ \t]{0,16}(?:=>|:=|[:=])(?![=>])[ \t]{0,16}|>(?<=<[\w.-]{1,60}>))`
export const VALUE =
  String.raw`(?:\\{1,3}"([^"\\\r\n]{1,512})(?=\\{1,3}")` + // inside escaped JSON
  String.raw`|"((?:[^"\\\r\n]|\\[^\r\n]){1,512})(?=")` + // JSON / double-quoted
  String.raw`|'([^'\r\n]{1,512})(?=')` +
  // bare: closing brackets at its end belong to the syntax around it (`{"secret": false}`)
  String.raw`|([^\s"'\x60,;&<>\\]{3,512}?)(?=[}\])]*(?:[\s"'\x60,;&<>\\]|$)))`

/** Keyword (the anchor), the regex that starts with it (checking what precedes it afterwards), and
 *  what may stand between the anchor and the end of the key. */
const KEYWORDS: [string, string, string][] = [
  ["pass", "pass(?:word|wd|phrase|(?<=[_-]pass))", "(?:word|wd|phrase)?"], // `DB_PASS`, `--pass`; not `bypass`
  ["pwd", "pwd(?<=[_-]pwd)", ""], // `MYSQL_PWD`; not `PWD`, the working directory
  ["secret", "secret", ""],
  ["token", "token", ""], // `GITHUB_TOKEN`, `accessToken`; not `max_tokens`, `tokenizer`
  ["key", "key(?<=(?:api|access|private|secret|signing|encryption|master|account|auth|license|client)[_-]?key)", ""],
  ["credential", "credentials?", "s?"],
]
/** Quick necessary condition after the key: a separator follows (prose mentions of the word are skipped). */
const SEP_AHEAD = KEY_END + String.raw`[ \t]{0,16}[:=>]`

export const CONTEXT_RULES: readonly Rule[] = [
  { id: "private-key", anchors: ["-----BEGIN"], re: PEM },
  // scheme://user:password@host — the password runs to the last `@` of the authority
  {
    id: "url-password",
    anchors: ["://"],
    follow: String.raw`(?=[^\s:/?#@'"<>]{0,256}:[^\s/?#'"<>]{1,256}@)`,
    re: /:\/\/[^\s:/?#@'"<>]{0,256}:([^\s/?#'"<>]{1,256})(?=@[^\s@/?#'"<>]*(?:[\s/?#'"<>:]|$))/g,
    // `https://[REDACTED:url-user-token]@host` is no user and password
    accept: (m, secret) => !isPlaceholder(secret) && !m[0].includes("[REDACTED:"),
  },
  {
    id: "authorization-header",
    anchors: ["authorization"],
    re: new RegExp(
      "authorization" + KEY_END + String.raw`[ \t]{0,16}[:=][ \t]{0,16}(?:\\{0,3}["'])?` +
        String.raw`(?:(?:basic|bearer|token|digest|negotiate|ntlm|bot|apikey|sso-key|aws4-hmac-sha256)[ \t]+)?` +
        String.raw`([^\s"'\x60\\,;]{1,2048})`,
      "gi",
    ),
    // "`Authorization: Bearer` authentication": a scheme with no credential after it
    accept: (_m, secret) => !isPlaceholder(secret) && !/^(?:basic|bearer|token|digest|negotiate|ntlm)$/i.test(secret),
  },
  {
    id: "bearer-token",
    anchors: ["bearer"],
    re: /bearer(?<=(?<![A-Za-z])bearer)[ \t]{1,4}([\w.~+/-]{8,4096}=*)/gi,
    accept: (_m, secret) => looksLikeToken(secret),
  },
  {
    id: "basic-auth",
    anchors: ["basic"],
    re: /basic(?<=(?<![A-Za-z])basic)[ \t]{1,4}([A-Za-z0-9+/]{8,4096}={0,2})(?![\w+/=])/gi,
    accept: (_m, secret) => isBasicCredential(secret),
  },
  {
    id: "cookie-header",
    anchors: ["cookie"],
    re: new RegExp(
      String.raw`cookie(?<=(?<![\w-])(?:set-)?cookie)` + KEY_END +
        String.raw`[ \t]{0,16}:[ \t]{0,16}(?:\\{0,3}["'])?([^\r\n"'\\]{1,4096})`,
      "gi",
    ),
    // `name=value; ...`, not `cookie: string` in source code
    accept: (_m, secret) => /^[^\s=;,]+=[^\s;,]/.test(secret),
  },
  ...KEYWORDS.map(
    ([anchor, k, rest]): Rule => ({
      id: "secret-assignment",
      anchors: [anchor],
      follow: `(?=${rest}${SEP_AHEAD})`,
      re: new RegExp(k + KEY_END + SEP + VALUE, "gi"),
      accept: acceptAssignment,
    }),
  ),
  // `--password hunter2` (the `=` form is an assignment above)
  {
    id: "password-flag",
    anchors: ["--pass", "--token", "--secret", "--api", "--access", "--auth", "--client"],
    re: /--(?:password|passwd|pass|token|secret|api-key|apikey|access-token|auth-token|client-secret)[ \t]+(?:'([^'\r\n]{1,512})(?=')|"([^"\r\n]{1,512})(?=")|([^\s'"-][^\s'"]{0,511}))/gi,
    accept: (_m, secret) => !isPlaceholder(secret),
  },
  // .netrc: `machine host login user password secret`
  {
    id: "netrc-password",
    anchors: ["password"],
    follow: String.raw`(?<=\blogin[ \t]+\S{1,256}[ \t]+password)`,
    re: /password(?<=\blogin[ \t]+\S{1,256}[ \t]+password)[ \t]+(\S{1,512})/g,
  },
  { id: "azure-storage-key", anchors: ["AccountKey="], re: /AccountKey=([A-Za-z0-9+/]{40,}={0,2})/g },
  { id: "azure-sas-signature", anchors: ["sig="], re: /sig=(?<=[?&;]sig=)([A-Za-z0-9%+/]{20,}={0,2})/g },
]

const PLACEHOLDER =
  /^(?:\$|%[sdv(]|<[^>]*>$|\{\{|\*+$|x+$|\.\.\.$|(?:null|nil|none|true|false|undefined|yes|no|on|off|empty|required|optional|string|redacted|hidden|masked)$)/i

/** `$DB_PASSWORD`, `${{ secrets.X }}`, `<your-token>`, `***`, `null`: a reference, not a value. */
export function isPlaceholder(value: string): boolean {
  return PLACEHOLDER.test(value)
}

export function acceptAssignment(m: RegExpExecArray, secret: string, text: string): boolean {
  if (isPlaceholder(secret)) return false
  // `https://x-access-token:TOKEN@host` is a URL's user and password (url-password), not `key: value`
  if (/:\/\/[^\s/@]*$/.test(text.slice(Math.max(0, m.index - 256), m.index))) return false
  if (m[4] === undefined) return true
  const end = m.index + m[0].length
  return !looksLikeCodeOrProse(secret, text.slice(end, end + 20))
}

const IDENTIFIERS = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$/

/** An unquoted value that is really prose or source code an agent read: "password: must be 8
 *  characters", `token = await fetchToken()`, `apiKey: process.env.API_KEY`, `privateKey: CryptoKey;`,
 *  `(token: string)`. Anything with a digit in an identifier-like value still counts as a secret. */
function looksLikeCodeOrProse(value: string, after: string): boolean {
  if (/^[A-Za-z]+$/.test(value) && /^[ \t]+[A-Za-z(]/.test(after)) return true
  if (/^[A-Za-z_$][\w$.]*\(|^\(\w*[:?,)]/.test(value)) return true // a call, a parameter list
  if (/^(?:string|number|boolean|any|unknown|never|object|void|bigint|symbol)\b/.test(value)) return true // a type
  if (/^0x[0-9a-fA-F]{1,8}$/.test(value)) return true // a small constant, not a 256-bit key
  if (!IDENTIFIERS.test(value) || /\d/.test(value)) return false
  // a member chain, or a name followed by code punctuation (`;`, `|`, `<`, `)`...)
  return value.includes(".") || /^[ \t]*[;,|)<(&[\]=]/.test(after)
}

/** "Bearer tokens are..." is prose; a token has a digit or symbol, or mixed case and some length. */
export function looksLikeToken(s: string): boolean {
  if (isPlaceholder(s)) return false
  if (/\d/.test(s)) return true
  if (s.length >= 16 && (/[._~+/=-]/.test(s) || (/[a-z]/.test(s) && /[A-Z]/.test(s)))) return true
  return false
}

/** "basic functionality" is prose; a Basic credential is base64 of `user:password`. */
function isBasicCredential(b64: string): boolean {
  try {
    const plain = atob(b64.length % 4 === 0 ? b64 : b64 + "=".repeat(4 - (b64.length % 4)))
    return plain.includes(":") && /^[\x20-\x7e]+$/.test(plain)
  } catch {
    return false
  }
}
