// The config files curl and wget read by themselves (curl: $CURL_HOME/.curlrc, $XDG_CONFIG_HOME/.curlrc,
// ~/.curlrc unless `-q` comes first; wget: $WGETRC or ~/.wgetrc): one that names a local file to read or
// send (`data = @.env`, `upload-file`, `netrc-file`, `post_file`, another `config`) makes every curl or
// wget of the call do so. Looked up on disk for calls that run one. Side effects: stat, read.
import type { ShellAnalysis } from "../shell/types.ts"
import type { Raised } from "./ondisk.ts"
import { readRegular } from "../base/readsafe.ts"

// a config line naming a file: an `@FILE`/`<FILE` value, or an option whose value is a file that is sent or read
const CURL_FILE_LINE = /^\s*-{0,2}(data[a-z-]*|json|header|proxy-header|url-query|variable|form|write-out|[dHFw])\b[\s=:]*["']?[^\n]*[@<]|^\s*-{0,2}(upload-file|netrc-file|netrc|netrc-optional|cookie|config|[TKbn])\b/im
const WGET_FILE_LINE = /^\s*(post_?file|body_?file|input|load_?cookies|netrc|config|certificate|private_?key)\s*=/im

export function netConfigs(shell: ShellAnalysis, env: Record<string, string | undefined> | undefined, home: string, raised: Raised): void {
  const programs = new Set(shell.commands.map((c) => c.program))
  if (programs.has("curl")) {
    const files = [env?.CURL_HOME && `${env.CURL_HOME}/.curlrc`, env?.XDG_CONFIG_HOME && `${env.XDG_CONFIG_HOME}/.curlrc`, `${home}/.curlrc`]
    for (const f of files) if (f && names(f, CURL_FILE_LINE)) raised.push({ risk: "high", reason: `curl reads its config file ${f}, which names a local file to read or send` })
  }
  if (programs.has("wget")) {
    for (const f of [env?.WGETRC, `${home}/.wgetrc`]) if (f && names(f, WGET_FILE_LINE)) raised.push({ risk: "high", reason: `wget reads its config file ${f}, which names a local file to read or send` })
  }
}

function names(file: string, line: RegExp): boolean {
  let text: string
  try {
    text = readRegular(file)
  } catch {
    // no such file: nothing is read from it
    return false
  }
  return line.test(text)
}
