// Builds and runners are low only while they run the workspace's own code. Options and operands that
// point them elsewhere — a URL, a package@version, a script or project outside the workspace, a shell
// or wrapper they run (npm --script-shell, go test -exec, cargo --config, make --eval) — raise them,
// with the option named. Also the editors that write what their input says. Pure.
import type { Finding } from "./raw.ts"
import type { View } from "./table.ts"
import type { Word } from "./word.ts"
import { isInside } from "../base/paths.ts"
import { resolveWord } from "./cwd.ts"
import { writeVerdict } from "./paths.ts"
import { pythonCommand } from "./pyopts.ts"

const URL = /^[a-z][a-z0-9+.-]*:\/\//i

/** Where a path word points when it is not inside the workspace (or cannot be placed); undefined when inside. */
function outside(v: View, w: Word | undefined): string | undefined {
  if (!w) return undefined
  if (w.value === undefined) return w.text
  if (URL.test(w.value)) return w.value
  const paths = resolveWord(w, v.part.cwd, v.place.home)
  if (paths === null) return w.value
  return paths.find((p) => !isInside(v.place.workspace, p))
}

/** `--name=value` or `--name value` (any unique-looking prefix of at least `min` letters), `-x value`, `-xvalue`. */
function optionValues(v: View, long: string[], short = "", min = 3): { written: string; value: Word | undefined }[] {
  const out: { written: string; value: Word | undefined }[] = []
  for (let i = 0; i < v.args.length; i++) {
    const a = v.values[i]!
    if (a === "--") break
    if (a.startsWith("--")) {
      const eq = a.indexOf("=")
      const given = a.slice(2, eq < 0 ? undefined : eq)
      if (given.length < min || !long.some((n) => n.startsWith(given))) continue
      out.push({ written: a.slice(0, eq < 0 ? undefined : eq), value: eq < 0 ? v.args[++i] : { ...v.args[i]!, value: a.slice(eq + 1), text: a.slice(eq + 1), tilde: false } })
    } else if (a.length >= 2 && a[0] === "-" && short.includes(a[1]!)) {
      out.push({ written: a.slice(0, 2), value: a.length > 2 ? { ...v.args[i]!, value: a.slice(2), text: a.slice(2), tilde: false } : v.args[++i] })
    }
  }
  return out
}

const high = (name: string, reason: string): Finding => ({ name, level: "high", reason })

/** npm, pnpm, yarn, bun: a script shell they run, or the project of another directory. */
export function packageManager(v: View, out: Finding[]): void {
  for (const o of optionValues(v, ["script-shell"])) out.push(high("runs-outside-code", `${v.program} ${o.written} runs the shell ${o.value?.text ?? "it names"}`))
  for (const o of optionValues(v, ["prefix", "cwd", "dir", "cache", "userconfig", "globalconfig"], v.program === "pnpm" ? "C" : "")) {
    const where = outside(v, o.value)
    if (where) out.push(high("runs-outside-code", `${v.program} ${o.written} ${where}: runs the scripts of a project outside the workspace`))
  }
  // bun FILE / bun run FILE / deno run URL: a script from outside the workspace or the network
  if (v.program === "bun" || v.program === "deno") {
    const ops = v.args.filter((a) => !(a.value ?? "").startsWith("-"))
    const file = ops[0]?.value === "run" || ops[0]?.value === "x" ? ops[1] : ops[0]
    if (file && /[/.:]/.test(file.value ?? file.text)) {
      const where = outside(v, file)
      if (where) out.push(high("runs-outside-code", `${v.program} runs ${where}, code from outside the workspace`))
    }
  }
}

export const INTERPRETERS = ["node", "nodejs", "python", "python3", "python2", "ruby", "perl", "php", "tsx", "ts-node"]

/** node/python/... FILE: a script from outside the workspace is code nobody here reviewed. */
export function interpreter(v: View, out: Finding[]): void {
  // python's -W/-X take a value: `python3 -X dev /tmp/x.py` runs /tmp/x.py
  const py = /^python/.test(v.program) ? pythonCommand(v.values) : undefined
  if (py && py.script === undefined) return
  const file = py ? v.args[py.script!] : v.args.find((a) => !(a.value ?? "").startsWith("-"))
  if (!file || !/[/.:]/.test(file.value ?? file.text)) return
  const where = outside(v, file)
  if (where) out.push(high("runs-outside-code", `${v.program} runs ${where}, code from outside the workspace`))
}

/** go run pkg@version downloads and runs; go test -exec / go build -toolexec run a program of their choosing. */
export function go(v: View, out: Finding[]): void {
  // go's flag package: -exec and --exec, with the value after `=` or in the next word
  for (const a of v.args) {
    const m = /^--?(exec|toolexec)(=|$)/.exec(a.value ?? "")
    if (m) out.push(high("runs-outside-code", `go ${v.sub} -${m[1]} runs a program of its choosing`))
  }
  if (v.sub === "run" || v.sub === "install" || v.sub === "generate") {
    const remote = v.args.find((a) => a.value !== undefined && /@/.test(a.value) && !a.value.startsWith("-"))
    if (remote) out.push(high("runs-outside-code", `go ${v.sub} ${remote.value} downloads and runs a module`))
  }
}

/** cargo --config KEY=VALUE can name a runner or linker cargo runs; -Z unstable flags too. */
export function cargo(v: View, out: Finding[]): void {
  for (const o of optionValues(v, ["config"], "", 3)) out.push(high("runs-outside-code", `cargo ${o.written} ${o.value?.text ?? ""} can make cargo run any program`))
  if (v.values.some((a) => a.startsWith("-Z"))) out.push({ name: "unknown-option", level: "medium", reason: "cargo -Z enables unstable features ccode does not know" })
}

/** make --eval CODE runs make code (and the shell it calls); -f/-C point it at another project. */
export function make(v: View, out: Finding[]): void {
  for (const o of optionValues(v, ["eval"], "E", 2)) out.push(high("runs-outside-code", `make ${o.written} runs the make code it is given`))
  // `-f -`: the makefile is whatever arrives on stdin, text no rule has seen
  for (const o of optionValues(v, ["file", "makefile"], "f", 2)) {
    if (o.value?.value === "-") out.push(high("runs-outside-code", `make ${o.written} - reads its makefile from stdin: the commands it runs are not shown here`))
  }
  for (const o of optionValues(v, ["file", "makefile", "directory", "include-dir"], "fCI", 2)) {
    const where = outside(v, o.value)
    if (where) out.push(high("runs-outside-code", `make ${o.written} ${where}: runs a Makefile from outside the workspace`))
  }
}

/** ed/ex run the commands they read, `!cmd` shell escapes included, and write the files they name. */
export function editorScript(v: View, out: Finding[]): void {
  const fed = v.part.stdin && v.part.stdin.kind !== "file" ? "" : " (or from a file)"
  out.push(high("editor-script", `${v.program} runs the editing commands it reads${fed}, shell escapes (!cmd) included`))
  for (const f of v.args.filter((a) => !(a.value ?? "").startsWith("-"))) {
    v.writes.push(f)
    const verdict = writeVerdict(f, v.part.cwd, v.place)
    if (verdict) out.push({ name: "write-files", level: verdict.level, reason: `${v.program} edits ${verdict.reason}` })
  }
}
