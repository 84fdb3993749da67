// Whether a repository's own config makes git run a program when it only reads: core.fsmonitor (a hook
// command, run by git status), diff.external and a diff driver's textconv/command, a filter's clean,
// smudge or process (run on the files git status compares), gpg programs (git log --show-signature,
// log.showSignature), a pager. An archive unpacked over the workspace can bring such a .git/config.
// Reads one small file; what cannot be read plainly (an include, a line git would refuse, a file too
// large) counts as running one. Pure but for the read.
import { readFileSync, statSync } from "node:fs"

const MAX_BYTES = 64 * 1024
const BOOLEAN = /^(true|false|yes|no|on|off|1|0|)$/i
const LFS_FILTER = /^git-lfs (clean -- %f|smudge( --skip)? -- %f|filter-process( --skip)?)$/

/** The key (`core.fsmonitor`) whose program git runs, or why the config could not be judged; undefined when none. */
export function configRuns(configFile: string): string | undefined {
  const st = statSync(configFile, { throwIfNoEntry: false })
  if (!st) return undefined
  if (!st.isFile() || st.size > MAX_BYTES) return `${configFile} (not a small plain file)`
  let text: string
  try {
    text = readFileSync(configFile, "utf8")
  } catch {
    return `${configFile} (unreadable)`
  }
  return runs(text)
}

/** The same over the config's text. */
export function runs(text: string): string | undefined {
  let section = ""
  let continued = false
  for (const raw of text.split(/\r?\n/)) {
    // a value ending in `\` goes on to the next line: that line is value, not a key
    if (continued) {
      continued = raw.endsWith("\\")
      continue
    }
    let line = raw.trim()
    if (line.startsWith("[")) {
      const m = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]/.exec(line)
      if (!m) return `a section header git reads differently (${line.slice(0, 40)})`
      section = m[2] === undefined ? m[1]!.toLowerCase() : `${m[1]!.toLowerCase()}.${m[2]}`
      // a key may follow the header on the same line
      line = line.slice(m[0].length).trim()
    }
    if (!line || line.startsWith("#") || line.startsWith(";")) continue
    const k = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*(.*))?$/.exec(line)
    if (!k) return `a line git reads differently (${line.slice(0, 40)})`
    const value = (k[2] ?? "").replace(/\s*[#;].*$/, "").replace(/^"(.*)"$/, "$1").trim()
    continued = raw.endsWith("\\")
    const key = `${section}.${k[1]!.toLowerCase()}`
    if (programKey(key, value)) return `${key} = ${value.slice(0, 60)}`
  }
  return undefined
}

function programKey(key: string, value: string): boolean {
  const [sec] = key.split(".", 1)
  const name = key.slice(key.lastIndexOf(".") + 1)
  const lower = key.toLowerCase()
  if (lower === "core.fsmonitor") return !BOOLEAN.test(value)
  if (lower === "core.pager" || lower === "diff.external") return true
  if (sec === "pager") return !BOOLEAN.test(value)
  if (sec === "diff") return name === "textconv" || name === "command"
  // `git lfs install --local` writes git-lfs's own filter into a repository's config: that one is expected
  if (sec === "filter") return (name === "clean" || name === "smudge" || name === "process") && !LFS_FILTER.test(value)
  if (sec === "gpg") return name === "program" || name === "defaultkeycommand"
  // an included file's keys are not seen here
  return sec === "include" || sec === "includeif"
}
