// The git config files the environment points git to (ccode's and git's own environment, not the
// command's: a `GIT_CONFIG_GLOBAL=…` prefix is judged by the analysis): $XDG_CONFIG_HOME/git/config,
// GIT_CONFIG_GLOBAL, GIT_CONFIG_SYSTEM, GIT_CONFIG (git config's file), and the GIT_CONFIG_COUNT pairs.
// A `git config -l`, `git remote -v` or `git var -l` prints what they hold: one holding a credential
// makes the command a read of it. Side effects: stat, read.
import { resolve } from "node:path"
import { envConfigCredential, gitConfigCredential } from "../base/gitcreds.ts"
import { printsConfig } from "../shell/touched.ts"
import type { ShellAnalysis } from "../shell/types.ts"
import type { Raised } from "./ondisk.ts"

export function gitEnvConfigs(shell: ShellAnalysis, env: Record<string, string | undefined> | undefined, home: string, cwd: string, raised: Raised): void {
  if (!env || !shell.commands.some((c) => c.program === "git" && printsConfig(c.args))) return
  const files = [env.XDG_CONFIG_HOME && `${env.XDG_CONFIG_HOME}/git/config`, env.GIT_CONFIG_GLOBAL, env.GIT_CONFIG_SYSTEM, env.GIT_CONFIG]
  for (const given of files) {
    if (!given) continue
    // a relative one is taken from where git starts
    const f = resolve(cwd, given)
    const key = gitConfigCredential(f, home)
    if (key) raised.push({ risk: "high", reason: `git reads ${f} (named by the environment), which holds a credential (${key}): a read sends it to the model` })
  }
  const inEnv = envConfigCredential(env)
  if (inEnv) raised.push({ risk: "high", reason: `git reads its config from the environment, which holds a credential (${inEnv}): a read sends it to the model` })
}
