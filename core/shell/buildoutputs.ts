// Files build and test tools write that their output options name: pytest's --log-file/--junitxml/
// (--cov-report's TYPE:PATH is read with the build's arguments, builds.ts)
// --basetemp/--html, go test's -coverprofile and other profiles, cargo's --target-dir/--artifact-dir,
// mypy's reports, deno's and bun's coverage and outputs, tox's and nox's reports, mvn -l/--log-file and
// -Dmaven.repo.local, gradle's cache folders; black and `ruff format`/`ruff check --fix` rewrite their
// operands. Each is judged as a write (`pytest --log-file .git/config` writes .git/config). Options are
// read with `=` or the next word; argparse programs (pytest, mypy, tox, nox) take any prefix. Pure.
import type { Finding } from "./raw.ts"
import type { View } from "./table.ts"
import type { Word } from "./word.ts"
import { writeVerdict } from "./paths.ts"

interface Outputs {
  long: string[]
  /** single-letter or single-dash names taken whole (`-l F`, go's `-coverprofile F`) */
  short?: string[]
  /** long names may be abbreviated (argparse) */
  prefix?: boolean
}

const PYTEST: Outputs = { long: ["log-file", "junitxml", "junit-xml", "basetemp", "result-log", "resultlog", "html", "report-log", "json-report-file"], prefix: true }
const OUTPUTS: Record<string, Outputs> = {
  pytest: PYTEST,
  "py.test": PYTEST,
  mypy: { long: ["junit-xml", "html-report", "xml-report", "txt-report", "linecount-report", "any-exprs-report", "cobertura-xml-report", "lineprecision-report", "linecoverage-report", "memory-xml-report", "cache-dir"], prefix: true },
  go: { long: [], short: ["coverprofile", "cpuprofile", "memprofile", "blockprofile", "mutexprofile", "trace", "outputdir", "o"] },
  cargo: { long: ["artifact-dir", "out-dir", "target-dir"] },
  deno: { long: ["junit-path", "coverage", "output"] },
  bun: { long: ["coverage-dir", "outfile", "outdir", "reporter-outfile"] },
  tox: { long: ["result-json", "workdir"], prefix: true },
  nox: { long: ["report", "envdir"], prefix: true },
  mvn: { long: ["log-file"], short: ["l"] },
  gradle: { long: ["project-cache-dir", "gradle-user-home"], short: ["g"] },
}

/** The programs judged here. */
export const OUTPUT_PROGRAMS = [...Object.keys(OUTPUTS), "black", "ruff", "mvnw", "gradlew"]

/** Judge the files a build or test tool's output options name (see the file's head). */
export function buildOutputs(v: View, out: Finding[]): void {
  const program = v.program === "mvnw" ? "mvn" : v.program === "gradlew" ? "gradle" : v.program
  if (program === "black" || program === "ruff") return rewrites(v, out)
  const spec = OUTPUTS[program]
  if (!spec) return
  for (let i = 0; i < v.args.length; i++) {
    const a = v.values[i]!
    if (a === "--") break
    // mvn -Dmaven.repo.local=DIR: the local repository, where it writes every artifact
    if (program === "mvn" && a.startsWith("-Dmaven.repo.local=")) {
      judge(v, out, sliced(v.args[i]!, "-Dmaven.repo.local=".length), a)
      continue
    }
    // pytest --cov-report=html:DIR: handed to the path checks (builds.ts judges it outside the workspace)
    if (spec === PYTEST && a.startsWith("--cov-report=") && a.includes(":")) {
      v.writes.push(sliced(v.args[i]!, a.indexOf(":") + 1))
      continue
    }
    const m = /^(--?)([A-Za-z][\w.-]*)(?:=([\s\S]*))?$/.exec(a)
    if (!m) continue
    const [, dashes, name, value] = m
    const hit = dashes === "--"
      ? spec.long.some((n) => n === name || (spec.prefix && name!.length >= 3 && n.startsWith(name!))) || (program === "go" && spec.short!.includes(name!))
      : (spec.short ?? []).includes(name!)
    if (!hit) continue
    const target = value !== undefined ? sliced(v.args[i]!, a.indexOf("=") + 1) : v.args[++i]
    if (target) judge(v, out, target, `${dashes}${name}`)
  }
}

// black FILE..., ruff format FILE..., ruff check --fix FILE...: each operand is rewritten (not with --check/--diff)
function rewrites(v: View, out: Finding[]): void {
  const vals = v.values
  if (vals.some((a) => a === "--check" || a === "--diff")) return
  if (v.program === "ruff" && !(v.sub === "format" || (v.sub === "check" && vals.some((a) => a === "--fix" || a === "--unsafe-fixes")))) return
  const start = v.program === "ruff" ? vals.indexOf(v.sub!) + 1 : 0
  for (let i = start; i < v.args.length; i++) if (!vals[i]!.startsWith("-")) judge(v, out, v.args[i]!, "rewrites")
}

function sliced(w: Word, from: number): Word {
  const value = (w.value ?? w.text).slice(from)
  return { ...w, text: w.text.slice(Math.min(from, w.text.length)), value: w.value === undefined ? undefined : value, tilde: false }
}

function judge(v: View, out: Finding[], w: Word, option: string): void {
  v.writes.push(w)
  const verdict = writeVerdict(w, v.part.cwd, v.place)
  if (verdict && verdict.level !== "medium") out.push({ name: "write-files", level: verdict.level, reason: `${v.program} ${option} writes: ${verdict.reason}` })
}
