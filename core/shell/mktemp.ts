// mktemp creates the file (or folder with -d) it names: where depends on -p DIR, --tmpdir[=DIR], -t and
// a TEMPLATE that may hold a slash. In the temporary directory (its default) or the workspace that is
// bookkeeping; anywhere else it is a write there, judged like any other. Pure.
import type { Finding } from "./raw.ts"
import type { View } from "./table.ts"
import type { Word } from "./word.ts"
import { readOptions, type Compiled } from "./getopt.ts"
import { known } from "./known.ts"
import { resolveWord } from "./cwd.ts"
import { writeVerdict } from "./paths.ts"
import { isInside } from "../base/paths.ts"

let spec: Compiled | undefined

export function mktemp(v: View, out: Finding[]): void {
  // -t (a flag) is marked so getopt reports it however it is bundled (`-dt`)
  if (!spec) {
    const base = known("mktemp")!.options
    spec = { ...base, effects: new Map([["t", "write"], ["u", "write"], ["dry-run", "write"]]) }
  }
  const r = readOptions(v.args, spec)
  if (r.valued.some((o) => o.name === "u" || o.name === "dry-run")) return
  const dir = r.valued.findLast((o) => o.name === "p" || o.name === "tmpdir")
  const template = r.operands[0]
  const inTmp = !template || r.valued.some((o) => o.name === "t") || (dir !== undefined && (dir.value === undefined || dir.value.value === ""))
  let target: Word | undefined
  if (dir?.value && dir.value.value !== "") target = joined(dir.value, template)
  else if (inTmp) target = template?.value?.includes("/") ? joined({ ...template, text: "/tmp", value: "/tmp", tilde: false }, template) : undefined
  else target = template
  if (!target) return
  // an empty file with a random name: where it goes unseen is not worth more than a question
  if (target.value === undefined) {
    out.push({ name: "write-files", level: "medium", reason: `mktemp creates a file in a directory known only at run time (${target.text})` })
    return
  }
  // the path rules see every target (risk.paths); the write itself only counts outside
  v.writes.push(target)
  const paths = resolveWord(target, v.part.cwd, v.place.home)
  if (paths && paths.every((p) => isInside(v.place.workspace, p) || v.place.tmp.some((t) => isInside(t, p)))) return
  const verdict = writeVerdict(target, v.part.cwd, v.place)
  if (verdict) out.push({ name: "write-files", level: verdict.level, reason: `mktemp creates a file there: ${verdict.reason}` })
}

// DIR/TEMPLATE as one word: known only when both are
function joined(dir: Word, template: Word | undefined): Word {
  const name = template ? template.value : "tmp.XXXXXXXXXX"
  const value = dir.value === undefined || name === undefined ? undefined : `${dir.value.replace(/\/+$/, "")}/${name}`
  return { ...dir, text: `${dir.text}/${template?.text ?? name}`, value, glob: false }
}
