// GNU tar, cpio and mt read an archive (tape) name with a `[user@]host:` prefix as a file on another
// machine: they run `rsh HOST /etc/rmt` (a remote program, over the network) unless --force-local is
// given. The name comes from -f/--file (tar, mt), -F/-O/-I/--file (cpio) or, with none, $TAPE. Pure.
import type { Finding } from "./raw.ts"
import type { View } from "./table.ts"
import { environment } from "./part.ts"

interface Spec {
  /** every short letter that takes a value (a bundle is read as getopt reads it) */
  valued: string
  /** the letters whose value is the archive */
  archive: string
  /** tar's first word may be a bundle of letters without a dash (`tar tf ARCHIVE`) */
  oldStyle: boolean
}

const SPECS: Record<string, Spec> = {
  tar: { valued: "bCfFgHIKLNTVX", archive: "f", oldStyle: true },
  gtar: { valued: "bCfFgHIKLNTVX", archive: "f", oldStyle: true },
  cpio: { valued: "CDEFHIMOR", archive: "FIO", oldStyle: false },
  mt: { valued: "ft", archive: "ft", oldStyle: false },
}

/** rmt's test: a colon, not first, with no `/` before it. */
export function remoteName(name: string): boolean {
  const colon = name.indexOf(":")
  return colon > 0 && !name.slice(0, colon).includes("/")
}

/** A finding for each archive name that is on another machine, or that ccode cannot see. */
export function remoteArchive(v: View, out: Finding[]): void {
  const spec = SPECS[v.program]
  if (!spec) return
  const names: { written: string; value: string | undefined; glob: boolean }[] = []
  let forceLocal = false
  let i = 0
  const take = (j: number) => ({ value: v.args[j]?.value, glob: v.args[j]?.glob === true })
  const first = v.values[0] ?? ""
  if (spec.oldStyle && /^[a-zA-Z]+$/.test(first)) {
    let next = 1
    for (const c of first) {
      if (!spec.valued.includes(c)) continue
      if (spec.archive.includes(c)) names.push({ written: `${first} (${c})`, ...take(next) })
      next++
    }
    i = next
  }
  for (; i < v.args.length; i++) {
    const w = v.values[i]!
    if (w === "--") break
    const long = /^--([a-z-]+)(=(.*))?$/s.exec(w)
    if (long) {
      const name = long[1]!
      if (name.length >= 3 && "force-local".startsWith(name)) forceLocal = true
      else if (name.length >= 2 && "file".startsWith(name)) {
        if (long[2] !== undefined) names.push({ written: `--${name}`, value: v.args[i]!.value === undefined ? undefined : long[3], glob: v.args[i]!.glob === true })
        else names.push({ written: w, ...take(++i) })
      }
      continue
    }
    if (!/^-[^-]/.test(w)) continue
    for (let k = 1; k < w.length; k++) {
      const c = w[k]!
      if (!spec.valued.includes(c)) continue
      const attached = k + 1 < w.length
      const value = attached ? { value: v.args[i]!.value === undefined ? undefined : w.slice(k + 1), glob: v.args[i]!.glob === true } : take(++i)
      if (spec.archive.includes(c)) names.push({ written: `-${c}`, ...value })
      break
    }
  }
  if (forceLocal) return
  if (!names.length) {
    const env = environment(v.part)
    if (!env?.has("TAPE")) return
    names.push({ written: "$TAPE", value: env.get("TAPE"), glob: false })
  }
  for (const n of names) {
    if (n.value === undefined) {
      out.push({ name: "network", level: "high", reason: `${v.program} ${n.written}: the archive name is not static, and a name with HOST: makes ${v.program} run rsh HOST rmt over the network (--force-local reads it as a file)` })
    } else if (remoteName(n.value) && !n.glob) {
      out.push({ name: "network", level: "high", reason: `${v.program} ${n.written} ${n.value}: an archive name with HOST: is on another machine, ${v.program} runs rsh ${n.value.slice(0, n.value.indexOf(":"))} rmt over the network (--force-local reads it as a file)` })
    } else if (remoteName(n.value)) {
      out.push({ name: "network", level: "high", reason: `${v.program} ${n.written} ${n.value}: the pattern can name a file with HOST:, which ${v.program} reads as another machine's (rsh HOST rmt over the network)` })
    }
  }
}
