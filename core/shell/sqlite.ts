// What the sqlite3 shell does beyond querying, read from its command line: the database operand is
// opened for writing; each SQL argument, `-cmd TEXT`, and a static here-doc/here-string/piped text is
// read for dot-commands (`.shell`/`.system` run command lines, `.output`/`.once`/`.save`/`.backup`/
// `.open`/`.log` write the file they name, `.read`/`.import`/`.load` read one, `|CMD` runs one; the
// shell takes any unique prefix, `.sy` is `.system`) and for the SQL functions that touch files or load
// code (readfile, writefile, edit, fsdir, load_extension). Text that is not static, `-init FILE`, and
// SQL read from a file or an unseen pipe are high: they may hold any of these. Pure.
import type { Finding } from "./raw.ts"
import type { View } from "./table.ts"
import type { Word } from "./word.ts"
import { writeVerdict } from "./paths.ts"

// options that take the next word (sqlite3 accepts `-x` and `--x`)
const VALUED = new Set(["cmd", "init", "mmap", "newline", "nullvalue", "separator", "vfs", "maxsize", "pagecache", "lookaside", "heap", "A", "escape", "limit"])

// dot-commands that run a program, write the file they name, or read one (the SQL it holds runs)
const RUNS = ["shell", "system", "excel", "edit", "load", "archive", "ar", "cd"]
const WRITES = ["output", "once", "save", "backup", "open", "log", "trace", "iotrace", "clone", "restore"]
const READS = ["read"]
const FUNCTIONS = /\b(readfile|writefile|edit|fsdir|load_extension|zipfile|sqlar_uncompress)\s*\(/i
// ATTACH 'x.db' / VACUUM INTO 'x.db' create the file they name
const FILES = /\b(?:attach(?:\s+database)?|vacuum(?:\s+\w+)?\s+into)\s+'([^']*)'/gi

/** Judge sqlite3's command line (see the file's head). */
export function sqlite(v: View, out: Finding[]): void {
  const texts: Word[] = []
  let db: Word | undefined
  for (let i = 0; i < v.args.length; i++) {
    const w = v.args[i]!
    const a = w.value
    if (db === undefined && a?.startsWith("-") && a.length > 1) {
      const name = a.replace(/^--?/, "")
      if (!VALUED.has(name)) continue
      const value = v.args[++i]
      if (name === "cmd" && value) texts.push(value)
      if (name === "init") out.push({ name: "runs-code", level: "high", reason: `sqlite3 -init ${value?.text ?? ""} runs the dot-commands and SQL of a file the command does not show` })
      continue
    }
    if (db === undefined) db = w
    else texts.push(w)
  }
  if (db) {
    const path = db.value?.startsWith("file:") ? { ...db, value: db.value.slice(5).split("?")[0]! } : db
    if (path.value !== ":memory:" && path.value !== "") judgeWrite(v, out, path, "opens the database", true)
  }
  if (texts.length === 0) {
    const s = v.part.stdin
    const body = s?.kind === "heredoc" || s?.kind === "herestring" ? s.body : s?.kind === "pipe" ? s.script : undefined
    if (body) texts.push(body)
    else if (s) out.push({ name: "runs-code", level: "high", reason: "sqlite3 reads its SQL from input the command does not show: dot-commands in it (.shell, .output) run programs and write files" })
  }
  for (const t of texts) judgeText(v, out, t)
}

function judgeText(v: View, out: Finding[], t: Word): void {
  if (t.value === undefined) {
    out.push({ name: "runs-code", level: "high", reason: `sqlite3 is given SQL that is not static (${t.text}): dot-commands in it (.shell, .output) run programs and write files` })
    return
  }
  for (const line of t.value.split("\n")) {
    const trimmed = line.trimStart()
    if (trimmed.startsWith(".")) dotCommand(v, out, t, trimmed)
  }
  const fn = FUNCTIONS.exec(t.value)
  if (fn) out.push({ name: "runs-code", level: "high", reason: `sqlite3 SQL calls ${fn[1]}(), which reads or writes files or loads code` })
  for (const m of t.value.matchAll(FILES)) judgeWrite(v, out, { ...t, text: m[1]!, value: m[1]!, tilde: false, glob: false }, "attaches a database")
}

function dotCommand(v: View, out: Finding[], t: Word, line: string): void {
  const args = line.slice(1).split(/\s+/).filter((x) => x.length > 0)
  const name = args[0] ?? ""
  const named = (list: string[]) => name.length > 0 && list.some((c) => c.startsWith(name))
  if (named(RUNS)) {
    out.push({ name: "runs-code", level: "high", reason: `sqlite3 .${name} runs a program or code the command does not show` })
    return
  }
  const file = args.slice(1).find((x) => !x.startsWith("-"))?.replace(/^(["'])(.*)\1$/, "$2")
  if (file?.startsWith("|")) {
    out.push({ name: "runs-code", level: "high", reason: `sqlite3 .${name} ${file} runs the command after |` })
    return
  }
  if (named(WRITES)) {
    if (args.slice(1).some((x) => x === "-e" || x === "-x")) out.push({ name: "runs-code", level: "high", reason: `sqlite3 .${name} -e/-x opens the output in a program` })
    if (file) judgeWrite(v, out, { ...t, text: file, value: file, tilde: false, glob: false }, `.${name} writes`)
  }
  if (name.length > 1 && "import".startsWith(name)) out.push({ name: "read-files", level: file && !/[$`]/.test(file) ? "medium" : "high", reason: `sqlite3 .${name} ${file ?? ""} reads the file it names into a table` })
  if (named(READS)) out.push({ name: "runs-code", level: "high", reason: `sqlite3 .${name} ${file ?? ""} reads a file the command does not show: its SQL and dot-commands run` })
}

function judgeWrite(v: View, out: Finding[], w: Word, what: string, database = false): void {
  const verdict = writeVerdict(w, v.part.cwd, v.place)
  // a database outside the workspace is judged by what reading it means (a credential store)
  if (database && verdict?.level === "high") return
  v.writes.push(w)
  if (verdict) out.push({ name: "write-files", level: verdict.level, reason: `sqlite3 ${what}: ${verdict.reason}` })
}
