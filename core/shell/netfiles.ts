// The local files curl and wget read, and which of them they send: `file:` URLs (curl's own globs
// `{a,b}` and `[..]` included), `@FILE` values (-d, --data-urlencode name@F, --url-query, -H, -w, -F
// name=@F or name=<F, --variable), file-valued options (-T, -b without `=`, --netrc-file, -K, --cert,
// --key, wget --post-file/--body-file/-i/--load-cookies, a wgetrc command given with -e), -n/--netrc
// (~/.netrc), and a config file the command names or moves (-K, --config, CURL_HOME=, WGETRC=, HOME=).
// Long options are matched by any prefix (curl and getopt_long take unique ones). httpie and xh:
// request items that embed or upload a file (`f@PATH`, `f=@PATH`, `f:=@PATH`). Pure.
import type { Word } from "./word.ts"
import type { Part } from "./part.ts"

export interface NetFile {
  /** the option (or URL) that reads it, as written */
  option: string
  value: Word
  /** the file's content goes over the network */
  sends: boolean
}

export interface NetReading {
  files: NetFile[]
  /** a configuration file whose options ccode does not read: it can name files to read and send */
  config?: string
}

type Kind = "at-send" | "name-at-send" | "form" | "file-send" | "cookie" | "at-read" | "file-read" | "config" | "url" | "netrc" | "exec"

const CURL_LONG: Record<string, Kind> = {
  data: "at-send", "data-ascii": "at-send", "data-binary": "at-send", json: "at-send", header: "at-send", "proxy-header": "at-send",
  "data-urlencode": "name-at-send", "url-query": "name-at-send", variable: "name-at-send",
  form: "form", "upload-file": "file-send", "netrc-file": "file-send", cookie: "cookie", "write-out": "at-read",
  config: "config", cacert: "file-read", capath: "file-read", cert: "file-read", key: "file-read", "proxy-cacert": "file-read", "proxy-cert": "file-read",
  "proxy-key": "file-read", crlfile: "file-read", "proxy-crlfile": "file-read", "etag-compare": "file-read", url: "url", netrc: "netrc", "netrc-optional": "netrc",
}
const CURL_SHORT: Record<string, Kind> = { d: "at-send", H: "at-send", F: "form", T: "file-send", b: "cookie", w: "at-read", K: "config", E: "file-read", n: "netrc" }
// curl's short options that take a value (the rest of a bundle, or the next word)
const CURL_VALUED = "AbcCdDeEFHKmoPQrtTuUwxXyYz"

const WGET_LONG: Record<string, Kind> = {
  "post-file": "file-send", "body-file": "file-send", "input-file": "file-read", "load-cookies": "file-read", config: "config", certificate: "file-read",
  "private-key": "file-read", "ca-certificate": "file-read", "crl-file": "file-read", "ca-directory": "file-read", execute: "exec",
}
const WGET_SHORT: Record<string, Kind> = { i: "file-read", e: "exec" }
const WGET_VALUED = "aABDeiIloOPQRtTUwXn"
// wgetrc commands (`-e post_file=F`; names compared without `_`/`-`, ignoring case)
const WGETRC_FILES: Record<string, boolean> = { postfile: true, bodyfile: true, input: false, loadcookies: false, certificate: false, privatekey: false, cacertificate: false, crlfile: false, cadirectory: false }

/** The programs whose local file reads this models. */
export const NET_PROGRAMS = new Set(["curl", "wget", "http", "https", "xh", "xhs"])

/** The files curl or wget reads through its options and URLs (words: the program and its arguments). */
export function netFiles(part: Part, home: string): NetReading {
  if (part.program !== "curl" && part.program !== "wget") return httpieFiles(part)
  const curl = part.program === "curl"
  const out: NetReading = { files: [] }
  const words = part.words
  const long = curl ? CURL_LONG : WGET_LONG
  const short = curl ? CURL_SHORT : WGET_SHORT
  const valued = curl ? CURL_VALUED : WGET_VALUED
  const longNames = Object.keys(long)
  let done = false
  // curl --proto-default SCHEME: a URL written without `scheme://` uses it (`--proto-default file /root/.netrc`)
  let scheme: string | undefined
  const bare: Word[] = []
  for (let i = 1; i < words.length; i++) {
    const w = words[i]!
    const a = w.value
    if (a === undefined) continue
    if (done || a[0] !== "-" || a === "-") {
      fileUrl(a, w, a, out)
      if (!a.includes("://")) bare.push(w)
      continue
    }
    if (curl && !done && a.length >= 9 && "--proto-default".startsWith(a)) {
      scheme = words[++i]?.value ?? "?"
      continue
    }
    if (curl && !done && a.startsWith("--proto-default=")) {
      scheme = a.slice(16)
      continue
    }
    if (a === "--") {
      done = true
      continue
    }
    if (a[1] === "-") {
      const eq = curl ? -1 : a.indexOf("=")
      const given = a.slice(2, eq < 0 ? undefined : eq).replace(/^no-/, "")
      const name = long[given] ? given : longNames.find((n) => given.length >= 2 && n.startsWith(given))
      if (!name) continue
      const kind = long[name]!
      if (kind === "netrc") {
        if (!a.startsWith("--no-")) take(out, a, { ...w, text: "~/.netrc", value: `${home}/.netrc`, tilde: false }, true)
        continue
      }
      const value = eq >= 0 ? attached(w, a.slice(eq + 1)) : words[++i]
      if (value) judge(kind, a.slice(0, eq < 0 ? undefined : eq), value, out)
      continue
    }
    for (let j = 1; j < a.length; j++) {
      const c = a[j]!
      const kind = short[c]
      if (kind === "netrc") take(out, a.length > 2 ? `-n (in ${a})` : "-n", { ...w, text: "~/.netrc", value: `${home}/.netrc`, tilde: false }, true)
      if (!valued.includes(c)) continue
      const value = j + 1 < a.length ? attached(w, a.slice(j + 1)) : words[++i]
      if (kind && value) judge(kind, a.length > 2 ? `-${c} (in ${a})` : a, value, out)
      break
    }
  }
  if (scheme !== undefined && !/^(https?|ftps?)$/i.test(scheme)) for (const w of bare) take(out, `--proto-default ${scheme}`, w, false)
  configFromEnv(part, curl, words, out)
  return out
}

// httpie and xh request items that embed or upload a file: `field@PATH` (a form upload), `field=@PATH`,
// `field:=@PATH` (JSON), `Header:@PATH`; the file is sent
function httpieFiles(part: Part): NetReading {
  const out: NetReading = { files: [] }
  for (const w of part.words.slice(1)) {
    const v = w.value
    if (v === undefined || v.startsWith("-") || v.includes("://")) continue
    const m = /^(?:[^@=:\s]|\\.)+(?:=|:=|:|==)?@(.+)$/s.exec(v)
    if (m && !m[0].includes("==@")) take(out, v.slice(0, v.length - m[1]!.length), attached(w, m[1]!.replace(/;type=[^;]*$/, "")), true)
  }
  return out
}

function judge(kind: Kind, option: string, w: Word, out: NetReading): void {
  const v = w.value
  if (v === undefined) {
    // a value named only at run time: it can be `@FILE` or a file
    if (kind !== "url") out.config ??= `${option} ${w.text}: a value named only at run time can name a local file to read and send`
    return
  }
  switch (kind) {
    case "at-send":
    case "at-read":
      if (v.startsWith("@") && v !== "@-") take(out, option, attached(w, v.slice(1)), kind === "at-send")
      return
    case "name-at-send": {
      const at = v.indexOf("@")
      // `name@file` or `@file`; `name=content` is content (a `=` before the `@`)
      const eq = v.indexOf("=")
      if (at >= 0 && (eq < 0 || at < eq) && v.slice(at + 1) !== "-") take(out, option, attached(w, v.slice(at + 1)), true)
      return
    }
    case "form": {
      const m = /^[^=]*=[@<]([^;]*)/.exec(v)
      if (m && m[1] !== "-") take(out, option, attached(w, m[1]!.replace(/^"(.*)"$/, "$1")), true)
      return
    }
    case "cookie":
      if (!v.includes("=")) take(out, option, w, true)
      return
    case "file-send":
    case "file-read":
      if (v !== "-") take(out, option, w, kind === "file-send")
      return
    case "config":
      if (v !== "-") take(out, option, w, false)
      out.config ??= `${option} ${v}: a config file can name options that read local files and send them`
      return
    case "url":
      if (v.startsWith("@")) take(out, option, attached(w, v.slice(1)), false)
      else fileUrl(v, w, option, out)
      return
    case "exec": {
      const m = /^\s*([A-Za-z_-]+)\s*=\s*(.*?)\s*$/s.exec(v)
      const key = m?.[1]!.replace(/[-_]/g, "").toLowerCase()
      if (!m) out.config ??= `${option} ${v}: a wgetrc command ccode cannot read`
      else if (key === "config") out.config ??= `${option} ${v}: a config file can name options that read local files and send them`
      else if (key !== undefined && key in WGETRC_FILES) take(out, `${option} ${m[1]}`, attached(w, m[2]!), WGETRC_FILES[key]!)
      return
    }
  }
}

/** `file:///p`, `file:/p`, `FILE://localhost/p`: the local file p (percent-decoded, curl's globs expanded). */
function fileUrl(v: string, w: Word, option: string, out: NetReading): void {
  if (!/^file:/i.test(v)) return
  let path = v.slice(5)
  if (path.startsWith("//")) path = path.slice(2 + (/^[^/]*/.exec(path.slice(2))?.[0].length ?? 0))
  path = path.replace(/[?#].*$/s, "")
  try {
    path = decodeURIComponent(path)
  } catch {
    out.config ??= `${option}: a file URL ccode cannot decode`
    return
  }
  for (const p of curlGlob(path)) take(out, option, { ...w, text: p, value: p, tilde: false, glob: /[[*?]/.test(p) }, false)
}

// curl's URL globs: `{a,b}` lists are expanded (64 at most), `[a-z]`/`[1-9]` ranges stay a shell-style
// class (a glob the path checks match against the sensitive names)
function curlGlob(path: string): string[] {
  let out = [path]
  for (let round = 0; round < 8; round++) {
    const next: string[] = []
    let changed = false
    for (const p of out) {
      const m = /\{([^{}]*)\}/.exec(p)
      if (!m) {
        next.push(p)
        continue
      }
      changed = true
      for (const alt of m[1]!.split(",")) next.push(p.slice(0, m.index) + alt + p.slice(m.index + m[0].length))
    }
    out = next.slice(0, 64)
    if (!changed) break
  }
  return out.map((p) => p.replace(/\[(\d+)-(\d+)(:\d+)?\]/g, "*"))
}

function take(out: NetReading, option: string, value: Word, sends: boolean): void {
  if (value.value === "" || value.value === undefined) return
  out.files.push({ option, value, sends })
}

// curl/wget given an option's attached value: bash expands no `~` inside a word
function attached(w: Word, value: string): Word {
  return { ...w, text: value, value, tilde: false }
}

// curl reads $CURL_HOME/.curlrc, $XDG_CONFIG_HOME/curlrc or ~/.curlrc (not with -q first); wget $WGETRC
// or ~/.wgetrc: a command that moves them makes curl/wget read a config file it may have written
function configFromEnv(part: Part, curl: boolean, words: readonly Word[], out: NetReading): void {
  if (curl && (words[1]?.value === "-q" || words[1]?.value === "--disable")) return
  const names = curl ? ["CURL_HOME", "XDG_CONFIG_HOME", "HOME"] : ["WGETRC", "SYSTEM_WGETRC", "HOME"]
  for (const a of part.assignments) if (names.includes(a.name)) out.config ??= `${a.name}=${a.value.text}: ${part.program} reads its config file from there, and it can name files to read and send`
  for (const n of names) if (part.exported?.has(n)) out.config ??= `${n} is set by this command: ${part.program} reads its config file from there, and it can name files to read and send`
}
