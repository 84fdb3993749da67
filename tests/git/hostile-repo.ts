// A repository that runs a program (which appends to a marker file) through every door git has
// for status/diff/add/commit/checkout: fsmonitor, hooks, filter drivers (also from an included
// file and from the global config), textconv, external diff, pager.
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, existsSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

export interface HostileRepo {
  dir: string
  repo: string
  home: string
  marker: string
  /** env for plain git in tests: an isolated HOME whose global config is hostile too */
  env: Record<string, string>
  /** which doors were opened so far (one tag per program run) */
  tags(): string[]
}

const HOOKS = ["pre-commit", "prepare-commit-msg", "commit-msg", "post-commit", "post-checkout", "reference-transaction", "post-index-change", "pre-auto-gc"]

export function hostileRepo(): HostileRepo {
  const dir = mkdtempSync(join(tmpdir(), "ccode-hostile-"))
  const repo = join(dir, "repo")
  const home = join(dir, "home")
  const marker = join(dir, "MARKER")
  mkdirSync(repo)
  mkdirSync(home)
  const env = cleanEnv(home)

  // the program every door runs: record the door, then behave like cat so filters "work"
  const evil = join(dir, "evil.sh")
  writeFileSync(evil, `#!/bin/sh\necho "$1" >> '${marker}'\ncat\nexit 0\n`)
  chmodSync(evil, 0o755)

  git(repo, env, "init", "-q", "-b", "main")
  writeFileSync(join(repo, "a.txt"), "alpha\n")
  writeFileSync(join(repo, "b.dat"), "beta\n")
  writeFileSync(join(repo, "c.inc"), "gamma\n")
  git(repo, env, "add", "-A")
  git(repo, env, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "init")

  // armed only after the first commit
  writeFileSync(join(repo, ".gitattributes"), "*.txt filter=evil diff=evil\n*.dat filter=proc\n*.inc filter=inc\n")
  const hooks = join(dir, "hooks")
  mkdirSync(hooks)
  for (const hook of HOOKS) {
    for (const where of [hooks, join(repo, ".git", "hooks")]) {
      writeFileSync(join(where, hook), `#!/bin/sh\necho hook:${hook} >> '${marker}'\nexit 0\n`)
      chmodSync(join(where, hook), 0o755)
    }
  }
  writeFileSync(join(dir, "included.config"), `[filter "inc"]\n\tclean = ${evil} filter:inc-clean\n\tsmudge = ${evil} filter:inc-smudge\n`)
  const config = [
    `[core]\n\tfsmonitor = ${evil} fsmonitor\n\thooksPath = ${hooks}\n\tpager = ${evil} pager\n`,
    `[filter "evil"]\n\tclean = ${evil} filter:clean\n\tsmudge = ${evil} filter:smudge\n\trequired = true\n`,
    `[filter "proc"]\n\tprocess = ${evil} filter:process\n\trequired = true\n`,
    `[diff "evil"]\n\ttextconv = ${evil} textconv\n\tcommand = ${evil} diff-driver\n`,
    `[diff]\n\texternal = ${evil} diff-external\n`,
    `[pager]\n\tstatus = ${evil} pager-status\n`,
    `[include]\n\tpath = ${join(dir, "included.config")}\n`,
  ].join("")
  writeFileSync(join(repo, ".git", "config"), readFileSync(join(repo, ".git", "config"), "utf8") + config)
  // the user's global config names the same doors, for repositories ccode keeps elsewhere (snapshots)
  writeFileSync(join(home, ".gitconfig"), `[user]\n\tname = t\n\temail = t@t\n${config}`)

  return {
    dir, repo, home, marker, env,
    tags: () => (existsSync(marker) ? readFileSync(marker, "utf8").split("\n").filter(Boolean) : []),
  }
}

/** An environment without GIT_* and with an isolated HOME, as a test's own plain git would use. */
export function cleanEnv(home: string): Record<string, string> {
  const env: Record<string, string> = {}
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined && !name.startsWith("GIT_")) env[name] = value
  return { ...env, HOME: home, XDG_CONFIG_HOME: join(home, ".config"), GIT_CONFIG_NOSYSTEM: "1" }
}

/** Plain, unprotected git (for arranging repositories and proving the traps are armed). */
export function git(cwd: string, env: Record<string, string>, ...args: string[]): string {
  const result = Bun.spawnSync(["git", ...args], { cwd, env, stdin: "ignore" })
  if (result.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${result.stderr.toString()}`)
  return result.stdout.toString()
}
