// Files named by output options, judged as writes and handed on for the path checks: the one reading
// of `-o F`, `-oF`, `-so F`, `--output F`, `--output=F`, `--outp F` shared by every assessor. Pure.
import type { Finding } from "./raw.ts"
import type { View } from "./table.ts"
import type { Word } from "./word.ts"
import { writeVerdict } from "./paths.ts"

/**
 * Files named by output options (`-o F`, `-oF`, `-so F`, `--output F`, `--output=F`, `--outp F`): each
 * is judged as a write and handed on for the path checks. Long names match by prefix (getopt_long
 * takes unique ones); short letters count inside a bundle of flags. Built once per program.
 */
export function optionTarget(names: string[]): (v: View, out: Finding[]) => void {
  const long = names.filter((n) => n.startsWith("--")).map((n) => n.slice(2))
  const short = names.filter((n) => /^-[A-Za-z]$/.test(n)).map((n) => n[1]!).join("")
  return (v, out) => {
    for (let i = 0; i < v.args.length; i++) {
      const a = v.values[i]!
      if (a.charCodeAt(0) !== 45) continue
      if (a === "--") break
      let target: Word | undefined
      if (a.charCodeAt(1) === 45) {
        const eq = a.indexOf("=")
        const given = a.slice(2, eq < 0 ? undefined : eq)
        if (!long.some((n) => n === given || (given.length > 0 && n.startsWith(given)))) continue
        target = eq < 0 ? v.args[++i] : { ...v.args[i]!, text: a.slice(eq + 1), value: a.slice(eq + 1), tilde: false }
      } else {
        // letters before the output letter are flags of the bundle (`-sSo FILE`)
        let at = -1
        for (let j = 1; j < a.length && at < 0; j++) {
          const c = a[j]!
          if (short.includes(c)) at = j
          else if (!/[A-Za-z]/.test(c)) break
        }
        if (at < 0) continue
        const rest = a.slice(at + 1)
        target = rest ? { ...v.args[i]!, text: rest, value: rest, tilde: false } : v.args[++i]
      }
      if (!target || target.value === "-") continue
      v.writes.push(target)
      const verdict = writeVerdict(target, v.part.cwd, v.place)
      if (verdict) out.push({ name: "write-files", level: verdict.level, reason: verdict.reason })
    }
  }
}

