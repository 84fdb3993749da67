// Extractors that rename the members they write: GNU tar --transform/--xform (any unique prefix),
// bsdtar -s, pax -s (when it reads), cpio -r/--rename. The archive's own names are what the member
// checks see; after a rename the names written are not known here (`s,^,.git/hooks/,` puts every
// member in .git/hooks): high, and a prefix added to every name (`s,^,DIR/,`) is judged as a write of
// DIR (a protected DIR is then critical). Pure.
import type { Finding } from "./raw.ts"
import type { View } from "./table.ts"
import type { Word } from "./word.ts"
import { writeVerdict } from "./paths.ts"

/** The rename expressions an extraction is given, judged. `extracting`: the command extracts. */
export function memberRenames(v: View, out: Finding[], extracting: boolean): void {
  if (!extracting) return
  for (const r of renames(v)) {
    out.push({ name: "write-files", level: "high", reason: `${v.program} ${r.option} renames the members it extracts: the names it writes are not known before it runs (a .git/hooks, .claude or startup file among them would be written)` })
    const dir = r.expr?.value === undefined ? undefined : addedPrefix(r.option === "-s" ? r.expr.value : r.expr.value.slice(1))
    if (dir === undefined) continue
    const word: Word = { ...r.expr!, text: dir, value: dir, tilde: false, glob: false }
    v.writes.push(word)
    const verdict = writeVerdict(word, v.part.cwd, v.place)
    if (verdict) out.push({ name: "write-files", level: verdict.level, reason: `${v.program} ${r.option} puts every member below ${dir}: ${verdict.reason}` })
  }
}

function renames(v: View): { option: string; expr: Word | undefined }[] {
  const out: { option: string; expr: Word | undefined }[] = []
  const gnu = v.program === "tar" || v.program === "gtar"
  for (let i = 0; i < v.args.length; i++) {
    const a = v.values[i]!
    if (a === "--") break
    if (gnu && a.startsWith("--")) {
      const eq = a.indexOf("=")
      const given = a.slice(2, eq < 0 ? undefined : eq)
      const named = (given.length >= 2 && "transform".startsWith(given)) || (given.length >= 2 && "xform".startsWith(given))
      if (named) out.push({ option: a.slice(0, eq < 0 ? undefined : eq), expr: eq < 0 ? v.args[++i] : { ...v.args[i]!, text: a.slice(eq + 1), value: a.slice(eq + 1) } })
    } else if ((v.program === "bsdtar" || v.program === "pax") && /^-[A-Za-z]*s/.test(a)) {
      // the first value-taking letter of a bundle takes the rest: `-xs EXPR`, `-s,^,x/,`
      const at = a.indexOf("s")
      out.push({ option: "-s", expr: at + 1 < a.length ? { ...v.args[i]!, text: a.slice(at + 1), value: a.slice(at + 1) } : v.args[++i] })
    } else if (v.program === "cpio" && (/^-[A-Za-z]*r/.test(a) || /^--ren/.test(a))) {
      out.push({ option: a, expr: undefined })
    }
  }
  return out
}

// `,^,DIR/,` (tar's `s,^,DIR/,` without its `s`; any delimiter, flags after): every name gets DIR/ in
// front; undefined for other forms
function addedPrefix(expr: string): string | undefined {
  const d = expr[0]
  if (d === undefined) return undefined
  const parts = expr.slice(1).split(d)
  if (parts.length < 3 || parts[0] !== "^" || !parts[1] || /[\\&]/.test(parts[1])) return undefined
  return parts[1].replace(/\/+$/, "") || undefined
}
