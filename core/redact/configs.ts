// Secrets in the shapes of configuration files and connection strings: ODBC/ADO `Pwd=...;`, a token
// as the user of a URL, `auth`/`_auth` keys (docker config.json, .npmrc), private members of a JWK,
// PuTTY `Private-Lines:`, exported variables named `*KEY`. Data and small pure checks.
import { acceptAssignment, isPlaceholder, KEY_END, SEP, VALUE } from "./contexts.ts"
import type { Located, Rule } from "./spans.ts"

/** A JSON object holding these names is a JSON Web Key; its private members are secrets (RFC 7518 6.2.2, 6.3.2, 6.4.1). */
const JWK_PRIVATE = ["d", "p", "q", "dp", "dq", "qi", "k"]

export const CONFIG_RULES: readonly Rule[] = [
  // `Server=x;Uid=app;Pwd=S3cret;`, `PWD={with;braces}`, `Password=two words;` — in a connection
  // string a value runs to the `;` (the working directory `PWD=/home/x` has none around it)
  {
    id: "connection-string-password",
    anchors: ["pwd", "password"],
    follow: String.raw`(?=[ \t]{0,4}=)`,
    re: /(?:pwd|password)(?<=(?<![\w-])(?:pwd|password))[ \t]{0,4}=[ \t]{0,4}(?:\{([^}\r\n]{1,512})(?=\})|"([^"\r\n]{1,512})(?=")|'([^'\r\n]{1,512})(?=')|([^;\r\n"'{][^;\r\n"']{0,511}?))(?=[ \t]*(?:[;"'}\r\n]|$))/gi,
    accept: (m, secret, text) => !isPlaceholder(secret.trim()) && inConnectionString(m, text),
  },
  // `https://TOKEN@host/repo.git`, `https://TOKEN:x-oauth-basic@github.com/...`: a user name that is a token
  {
    id: "url-user-token",
    anchors: ["://"],
    follow: String.raw`(?=[^\s:/?#@'"<>]{16,256}(?::[^\s/?#@'"<>]{0,256})?@)`,
    re: /:\/\/([^\s:/?#@'"<>]{16,256})(?=(?::[^\s/?#@'"<>]{0,256})?@)/g,
    accept: (_m, user) => looksLikeTokenUser(user),
  },
  // docker config.json `"auth": "base64(user:pass)"`, .npmrc `_auth=...`, `auth: ...` in YAML
  {
    id: "secret-assignment",
    anchors: ["auth"],
    follow: `(?=${KEY_END}${String.raw`[ \t]{0,16}[:=]`})`,
    re: new RegExp(String.raw`auth(?<=(?<![A-Za-z0-9])auth)` + KEY_END + SEP + VALUE, "gi"),
    accept: (m, secret, text) => acceptAssignment(m, secret, text) && looksLikeCredential(secret),
  },
  // JWK private members: `"d": "..."` where the same object says `"kty"` (before or after it)
  {
    id: "jwk-private-key",
    anchors: JWK_PRIVATE.flatMap((k) => [`"${k}"`, `\\"${k}\\"`]),
    re: new RegExp(String.raw`\\{0,3}"(?:${JWK_PRIVATE.join("|")})\\{0,3}"[ \t]*:[ \t]*\\{0,3}"([\w-]{8,16384})`, "g"),
    locate: (m, text) => jwkMember(m, text),
  },
  // PuTTY .ppk: `Private-Lines: N` then N lines of base64 (also with JSON-escaped line ends)
  {
    id: "putty-private-key",
    anchors: ["Private-Lines:"],
    re: /Private-Lines:[ \t]*(\d{1,4})[ \t]*/g,
    locate: (m, text) => privateLines(text, m.index + m[0].length, Number(m[1])),
  },
  // `export SEGMENT_WRITEKEY=...`, `MIXPANEL_KEY=...` in an env file or `printenv`: an upper-case
  // variable name ending in KEY (names ending in TOKEN, SECRET, PASSWORD are secret-assignment's)
  {
    id: "secret-assignment",
    anchors: ["KEY="],
    re: new RegExp(String.raw`KEY(?<=(?<![\w$.-](?<!\\[nrt]))[A-Z][A-Z0-9_]{0,80}KEY)=` + String.raw`[ \t]{0,16}` + VALUE, "g"),
    accept: acceptAssignment,
  },
  // `export PASS=...`, `PASS='...'` in an env file: the bare upper-case name (`DB_PASS` is
  // secret-assignment's; lower-case `pass=3` in test summaries is a count, not a password)
  {
    id: "secret-assignment",
    anchors: ["PASS="],
    re: new RegExp(String.raw`PASS(?<=(?<![\w$.-](?<!\\[nrt]))PASS)=` + String.raw`[ \t]{0,16}` + VALUE, "g"),
    accept: acceptAssignment,
  },
]

const LINE_END = /\r?\n|\\{1,3}(?:r\\{1,3})?n/y
const BASE64_RUN = /[A-Za-z0-9+/=]{1,128}/y

/** The `count` whole lines of base64 after `from`; when the text ends first, up to its end (a
 *  stream holds what may still grow). */
function privateLines(text: string, from: number, count: number): [number, number][] {
  let start = -1
  let end = from
  for (let line = 0; line < count; line++) {
    LINE_END.lastIndex = end
    if (!LINE_END.test(text)) return end >= text.length ? [[start < 0 ? from : start, text.length]] : found(start, end)
    const lineStart = LINE_END.lastIndex
    BASE64_RUN.lastIndex = lineStart
    if (!BASE64_RUN.test(text)) return lineStart >= text.length ? [[start < 0 ? from : start, text.length]] : found(start, end)
    const runEnd = BASE64_RUN.lastIndex
    LINE_END.lastIndex = runEnd
    if (runEnd < text.length && !LINE_END.test(text)) return found(start, end)
    if (start < 0) start = lineStart
    end = runEnd
  }
  return found(start, end)
}

function found(start: number, end: number): [number, number][] {
  return start < 0 ? [] : [[start, end]]
}

/** `;` before the key or after the value: `Server=...;Pwd=x`, `Pwd=x;Server=...`. */
function inConnectionString(m: RegExpExecArray, text: string): boolean {
  const before = text.slice(Math.max(0, m.index - 8), m.index)
  if (/;[ \t]*$/.test(before)) return true
  const end = m.index + m[0].length
  return /^[ \t]*[}"']?[ \t]*;/.test(text.slice(end, end + 8))
}

/** User names are words (`git`, `deploy`, `oauth2`, `x-access-token`); a token is long and mixes
 *  letters and digits. */
function looksLikeTokenUser(user: string): boolean {
  if (isPlaceholder(user) || user.startsWith("[REDACTED")) return false
  const letters = /[A-Za-z]/.test(user)
  const digits = /\d/.test(user)
  return (letters && digits && !/^[a-z]+(?:[-.][a-z]+)*\d{0,4}$/.test(user)) || user.length >= 32
}

/** `auth: basic`, `"auth": "none"` name a method; a credential is long with digits or base64 symbols. */
function looksLikeCredential(value: string): boolean {
  return value.length >= 8 && (/[\d+/=]/.test(value) || (/[a-z]/.test(value) && /[A-Z]/.test(value)))
}

/** The value, when the object around it (from the `{` before it to the `}` after it) names a key
 *  type. While that object is still open at the end of the text, up to the end: a stream holds it
 *  until it knows. */
function jwkMember(m: RegExpExecArray, text: string): Located[] {
  const at = m.index
  const from = Math.max(0, at - WINDOW)
  const open = text.lastIndexOf("{", at)
  if (open < from) return []
  const end = at + m[0].length
  const value: Located = [end - m[1]!.length, end, open]
  if (KTY.test(text.slice(open, at))) return [value]
  const close = text.indexOf("}", end)
  if (close < 0 || close > end + WINDOW) return end + WINDOW >= text.length ? [[value[0], text.length, open]] : []
  return KTY.test(text.slice(end, close)) ? [value] : []
}

const WINDOW = 16384
const KTY = /\\{0,3}"kty\\{0,3}"[ \t]*:/
