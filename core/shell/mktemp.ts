// mktemp creates the file (or folder with -d) it names: where depends on -p DIR, --tmpdir[=DIR], -t,
// TMPDIR (from an assignment before it or an earlier export) and a TEMPLATE that may hold a slash. In
// the temporary directory (its default) or the workspace that is bookkeeping; anywhere else it is a
// write there, judged like any other. Pure.
import type { Finding } from "./raw.ts"
import type { View } from "./table.ts"
import { dynamicWord, literalWord, type Word } from "./word.ts"
import { readOptions, type Compiled } from "./getopt.ts"
import { known } from "./known.ts"
import { resolveWord } from "./cwd.ts"
import { writeVerdict } from "./paths.ts"
import { isInside } from "../base/paths.ts"

let spec: Compiled | undefined
const TMP: Word = { ...literalWord("/tmp"), tilde: false }

export function mktemp(v: View, out: Finding[]): void {
  // GNU's -t is a flag (BSD's takes a prefix, which names no directory): read as a flag, `-t -p DIR`
  // keeps DIR; marked so getopt reports it however it is bundled (`-dt`)
  if (!spec) {
    const base = known("mktemp")!.options
    spec = { ...base, short: new Map([...base.short, ["t", "flag"]]), effects: new Map([["t", "write"], ["u", "write"], ["dry-run", "write"]]) }
  }
  const r = readOptions(v.args, spec)
  if (r.valued.some((o) => o.name === "u" || o.name === "dry-run")) return
  for (const target of targets(v, r.valued, r.operands[0])) judge(v, target, out)
}

// GNU mktemp: with -t, $TMPDIR, else -p DIR, else /tmp; with -p DIR/--tmpdir[=DIR] or no template, DIR,
// else $TMPDIR, else /tmp; otherwise the template itself. Both of -t's candidates are judged.
function targets(v: View, valued: ReturnType<typeof readOptions>["valued"], template: Word | undefined): Word[] {
  const p = valued.findLast((o) => o.name === "p" || o.name === "tmpdir")
  const given = p?.value && p.value.value !== "" ? p.value : undefined
  const env = tmpdir(v)
  let dirs: Word[]
  if (valued.some((o) => o.name === "t")) dirs = [env, given].filter((d): d is Word => d !== undefined)
  else if (p || !template) dirs = given ? [given] : env ? [env] : []
  else return [template]
  if (!dirs.length) dirs = [TMP]
  return dirs.map((d) => joined(d, template))
}

function judge(v: View, target: Word, out: Finding[]): void {
  // an empty file with a random name: where it goes unseen is not worth more than a question
  if (target.value === undefined) {
    out.push({ name: "write-files", level: "medium", reason: `mktemp creates a file in a directory known only at run time (${target.text})` })
    return
  }
  // the path rules see every target (risk.paths, protected paths); the write itself only counts outside
  v.writes.push(target)
  const paths = resolveWord(target, v.part.cwd, v.place.home)
  if (paths && paths.every((p) => isInside(v.place.workspace, p) || v.place.tmp.some((t) => isInside(t, p)))) return
  const verdict = writeVerdict(target, v.part.cwd, v.place)
  if (verdict) out.push({ name: "write-files", level: verdict.level, reason: `mktemp creates a file there: ${verdict.reason}` })
}

// TMPDIR as mktemp will see it: an assignment before it, else what the script exported (or inherited);
// undefined when unset or empty
function tmpdir(v: View): Word | undefined {
  const assigned = v.part.assignments.findLast((a) => a.name === "TMPDIR")
  if (assigned) return assigned.value.value === "" ? undefined : assigned.value
  if (!v.part.exported?.has("TMPDIR")) return undefined
  const value = v.part.exported.get("TMPDIR")
  if (value === undefined) return dynamicWord("$TMPDIR")
  return value === "" ? undefined : { ...literalWord(value), tilde: false }
}

// DIR/TEMPLATE as one word: known only when both are
function joined(dir: Word, template: Word | undefined): Word {
  const name = template ? template.value : "tmp.XXXXXXXXXX"
  const value = dir.value === undefined || name === undefined ? undefined : `${dir.value.replace(/\/+$/, "")}/${name}`
  return { ...dir, text: `${dir.text}/${template?.text ?? name}`, value, glob: false }
}
