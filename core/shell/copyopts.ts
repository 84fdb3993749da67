// The option lists of cp, mv, ln and install (GNU), for reading which operand is the destination: with
// -t/--target-directory DIR (any unique prefix, in a bundle: `-vt DIR`) every operand is a source and
// lands in DIR; without it the last operand, when it is a directory (`.`, `~/`), receives DIR/NAME.
// Compiled on first use: a process that never sees them pays nothing at start-up. Pure.
import type { Word } from "./word.ts"
import { compileOptions, readOptions, type Compiled } from "./getopt.ts"
import { basename } from "./part.ts"
import { segmentRegex } from "./globs.ts"

let specs: Record<"ln" | "cp" | "mv" | "install", Compiled> | undefined

export function copyOptions(program: "ln" | "cp" | "mv" | "install"): Compiled {
  specs ??= {
    ln: compileOptions({
      short: "bdfFinPrsTvLS:t:",
      long: "backup? directory force interactive logical no-dereference physical relative symbolic suffix= target-directory= no-target-directory verbose help version",
      writes: "T no-target-directory",
    }),
    cp: compileOptions({
      short: "abdfHiLlnPpRrsTuvxS:t:",
      long: "archive attributes-only backup? copy-contents dereference force interactive link no-dereference no-clobber preserve? no-preserve= parents recursive reflink? remove-destination sparse= strip-trailing-slashes symbolic-link suffix= target-directory= no-target-directory update? verbose one-file-system context? debug keep-directory-symlink help version",
      writes: "T no-target-directory",
    }),
    mv: compileOptions({
      short: "bfinTuvS:t:Z",
      long: "backup? exchange force interactive no-clobber no-copy strip-trailing-slashes suffix= target-directory= no-target-directory update? verbose context help version",
      writes: "T no-target-directory",
    }),
    install: compileOptions({
      short: "bcCdDg:m:o:psS:t:TvZ",
      long: "backup? compare directory group= mode= owner= preserve-timestamps strip strip-program= suffix= target-directory= no-target-directory verbose preserve-context context? help version",
      writes: "T no-target-directory",
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

/**
 * Without -t: what the last operand receives. It is written itself, and when it is a directory that
 * exists (`cp -r x/.claude .`, `cp .bashrc ~/`, `mv a/.git .`) each source lands in it under its own
 * name: DEST/NAME is judged too (lexically, for every source: when DEST is a file the extra name is
 * never written, which costs nothing). `SRC/.` and -T (--no-target-directory) copy a folder's CONTENTS
 * into DEST: names not known here, returned as `contents`. `ln -s TARGET` alone makes ./NAME.
 */
export function landings(program: "ln" | "cp" | "mv" | "install", args: readonly Word[]): { writes: Word[]; contents?: { from: Word; into: Word } } {
  const r = readOptions(args, copyOptions(program))
  const ops = r.operands
  if (program === "ln" && ops.length === 1) {
    const name = nameOf(ops[0]!)
    return { writes: name === undefined ? [] : [{ ...ops[0]!, text: name, value: name, tilde: false, glob: false }] }
  }
  if (ops.length < 2) return { writes: [] }
  const dest = ops[ops.length - 1]!
  const writes = [dest]
  const sources = ops.slice(0, -1)
  const noTarget = r.valued.some((o) => o.name === "T" || o.name === "no-target-directory")
  const whole = sources.find((s) => s.value !== undefined && /(^|\/)\.\/*$/.test(s.value))
  if (program !== "ln" && (noTarget || whole)) return { writes, contents: { from: whole ?? sources[0]!, into: dest } }
  return { writes: noTarget ? writes : [...writes, ...namedIn(sources, dest)] }
}

/** DEST/NAME for each source that has a static name (DEST itself not static: none). A glob source
 *  (`pkg/.*`) lands as each of the names that matter where it lands (.git, .claude, startup files) that
 *  its last segment could match: not as a glob, whose every credential-like candidate would read as a
 *  secret (`cp -r src/* dist/` writes no key). */
export function namedIn(sources: readonly Word[], dest: Word): Word[] {
  const out: Word[] = []
  // a device (`cp x /dev/null`) is no folder; DEST itself is judged all the same
  if (dest.value === undefined || /^\/(dev|proc)\//.test(dest.value)) return out
  const at = (name: string): Word => ({ ...dest, text: `${dest.text.replace(/\/+$/, "")}/${name}`, value: `${dest.value!.replace(/\/+$/, "")}/${name}`, glob: dest.glob })
  for (const src of sources) {
    const name = nameOf(src)
    if (name === undefined) continue
    if (!src.glob || !/[*?[]/.test(name)) out.push(at(name))
    // bash's wildcards skip a leading dot unless the pattern spells it (dotglob is off in `bash -c`)
    else if (name.startsWith(".")) for (const n of LANDING_NAMES) if (segmentRegex(name).test(n)) out.push(at(n))
  }
  return out
}

// names whose arrival in a folder matters: protected folders and the home's startup files
const LANDING_NAMES = [".git", ".claude", ".gemini", ".ccode", ".husky", ".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile", ".zshrc", ".zprofile", ".zshenv", ".zlogin", ".gitconfig", ".config", ".local", ".vimrc", ".bashrc.d", ".profile.d"]

// the name a source keeps in the directory it lands in; undefined when not static or `.`/`..`
function nameOf(src: Word): string | undefined {
  if (src.value === undefined) return undefined
  const name = basename(src.value.replace(/\/+$/, ""))
  return name && name !== "." && name !== ".." ? name : undefined
}
