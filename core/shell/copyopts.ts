// The option lists of cp, mv, ln and install (GNU), for reading which operand is the destination: with
// -t/--target-directory DIR (any unique prefix, in a bundle: `-vt DIR`) every operand is a source and
// lands in DIR. Compiled on first use: a process that never sees them pays nothing at start-up. Pure.
import type { Word } from "./word.ts"
import { compileOptions, readOptions, type Compiled } from "./getopt.ts"
import { basename } from "./part.ts"

let specs: Record<"ln" | "cp" | "mv" | "install", Compiled> | undefined

export function copyOptions(program: "ln" | "cp" | "mv" | "install"): Compiled {
  specs ??= {
    ln: compileOptions({
      short: "bdfFinPrsTvLS:t:",
      long: "backup? directory force interactive logical no-dereference physical relative symbolic suffix= target-directory= no-target-directory verbose help version",
    }),
    cp: compileOptions({
      short: "abdfHiLlnPpRrsTuvxS:t:",
      long: "archive attributes-only backup? copy-contents dereference force interactive link no-dereference no-clobber preserve? no-preserve= parents recursive reflink? remove-destination sparse= strip-trailing-slashes symbolic-link suffix= target-directory= no-target-directory update? verbose one-file-system context? debug keep-directory-symlink help version",
    }),
    mv: compileOptions({
      short: "bfinTuvS:t:Z",
      long: "backup? exchange force interactive no-clobber no-copy strip-trailing-slashes suffix= target-directory= no-target-directory update? verbose context help version",
    }),
    install: compileOptions({
      short: "bcCdDg:m:o:psS:t:TvZ",
      long: "backup? compare directory group= mode= owner= preserve-timestamps strip strip-program= suffix= target-directory= no-target-directory verbose preserve-context context? help version",
    }),
  }
  return specs[program]
}

/** With -t DIR: the files the command writes there (DIR/NAME for each source); undefined without -t. */
export function intoDirectory(program: "ln" | "cp" | "mv" | "install", args: readonly Word[]): { dir: Word | undefined; writes: Word[] } | undefined {
  const r = readOptions(args, copyOptions(program))
  const t = r.valued.findLast((o) => o.name === "t" || o.name === "target-directory")
  if (!t) return undefined
  const dir = t.value
  if (dir?.value === undefined) return { dir, writes: [] }
  const writes: Word[] = []
  for (const src of r.operands) {
    if (src.value === undefined) continue
    const name = basename(src.value.replace(/\/+$/, ""))
    if (name && name !== "." && name !== "..") writes.push({ ...dir, text: `${dir.text}/${name}`, value: `${dir.value}/${name}` })
  }
  return { dir, writes }
}
