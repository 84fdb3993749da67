// What rg reads besides the folders' own ignore files, for its walk of a folder (core/policy/treedisk.ts):
// the repository's .git/info/exclude, git's global excludes (core.excludesFile of the user's config, else
// $XDG_CONFIG_HOME/git/ignore or ~/.config/git/ignore), and its own config file (RIPGREP_CONFIG_PATH in
// ccode's environment, as in rg's): a `!.env` line there, or `--hidden`/`--glob` in the config, makes rg
// search dot-files its defaults skip. Side effects: stat, read of a few small files.
import { existsSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { parseConfig } from "../base/gitconfig.ts"
import { gitfileTarget } from "../base/gitrepo.ts"
import type { IgnoreFile } from "./treedisk.ts"
import { readRegular } from "../base/readsafe.ts"
import { builtinTypeGlobs } from "../shell/rgtypes.ts"

export interface RgSources {
  /** the config turns the hidden test off (--hidden, -., -uu) */
  hidden: boolean
  /** the config's globs: dot-names they match are searched */
  globs: string[]
  ignoreFiles: IgnoreFile[]
  /** config options that make rg read more than ccode follows */
  unknown?: string
}

// options of a config line that change which files rg opens or what it runs on them
const OTHER = /^(?:--pre(?:-glob)?|--follow|-L|--search-zip|-z|--no-ignore-dot|--type-add|--one-file-system)(?:=|$)/

export function rgSources(root: string, home: string, env: Record<string, string | undefined> | undefined): RgSources {
  const out: RgSources = { hidden: false, globs: [], ignoreFiles: [] }
  const top = repoTop(root)
  if (top) {
    const gitDir = gitfileTarget(join(top, ".git")) ?? join(top, ".git")
    out.ignoreFiles.push({ file: join(gitDir, "info", "exclude"), base: top })
  }
  const base = top ?? root
  for (const f of globalExcludes(home, env)) out.ignoreFiles.push({ file: f, base })
  const config = env?.RIPGREP_CONFIG_PATH
  if (config) readConfig(config, root, out)
  return out
}

function repoTop(start: string): string | undefined {
  for (let d = start; ; d = dirname(d)) {
    if (existsSync(join(d, ".git"))) return d
    if (d === dirname(d)) return undefined
  }
}

// core.excludesFile of the user's configs (the last one wins; every one is taken), else git's default
function globalExcludes(home: string, env: Record<string, string | undefined> | undefined): string[] {
  const xdg = env?.XDG_CONFIG_HOME || join(home, ".config")
  const configs = [env?.GIT_CONFIG_GLOBAL, join(home, ".gitconfig"), join(xdg, "git", "config"), join(home, ".config", "git", "config")]
  const files = [join(xdg, "git", "ignore"), join(home, ".config", "git", "ignore")]
  for (const c of configs) {
    if (!c) continue
    let text: string
    try {
      text = readRegular(c)
    } catch {
      continue
    }
    const entries = parseConfig(text)
    if (typeof entries === "string") continue
    for (const e of entries) {
      if (e.key !== "core.excludesfile" || !e.value) continue
      files.push(e.value.startsWith("~/") ? home + e.value.slice(1) : resolve(dirname(c), e.value))
    }
  }
  return [...new Set(files)]
}

function readConfig(file: string, root: string, out: RgSources): void {
  let text: string
  try {
    text = readRegular(file)
  } catch {
    return
  }
  const args = text.split("\n").map((l) => l.trim()).filter((l) => l && !l.startsWith("#"))
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!
    const value = (long: string, short?: string): string | undefined => {
      if (a === long || (short && a === short)) return args[++i]
      if (a.startsWith(`${long}=`)) return a.slice(long.length + 1)
      if (short && a.startsWith(short) && a.length > short.length) return a.slice(short.length)
      return undefined
    }
    if (a === "--hidden" || a === "-." || /^-u{2,}$/.test(a) || a === "--unrestricted") out.hidden = true
    const glob = value("--glob", "-g") ?? value("--iglob")
    // a `!` glob excludes what it matches
    if (glob !== undefined && !glob.startsWith("!")) out.globs.push(glob)
    // a built-in type that matches .env (ripgrep 14's sh, all) whitelists it like a glob
    const type = value("--type", "-t")
    if (type !== undefined) out.globs.push(...builtinTypeGlobs(type))
    const ignore = value("--ignore-file")
    if (ignore !== undefined) out.ignoreFiles.push({ file: resolve(root, ignore), base: root })
    if (OTHER.test(a)) out.unknown ??= `rg reads its config file ${file} (RIPGREP_CONFIG_PATH), which sets ${a.slice(0, 40)}`
  }
}
