// git commands that write the work tree from commits (checkout/switch/merge/cherry-pick/rebase/restore
// --source/read-tree -u/reset --hard/stash apply|pop) write every file those commits change: a branch
// holding .claude/settings.json writes it on `git checkout evil`. The files the named commit changes
// against HEAD are listed with git and handed on as writes, so the path rules judge them (a protected
// one is critical). A name git does not resolve to a commit is skipped (git fails on it, or it is a path).
// Side effects: runs git (hardened argv, bounded time).
import { join } from "node:path"
import type { ShellAnalysis } from "../shell/types.ts"
import type { CallPath } from "./types.ts"
import type { Raised } from "./ondisk.ts"
import { runGit } from "./gitcontent.ts"

const SUBS = new Set(["checkout", "switch", "merge", "cherry-pick", "rebase", "restore", "read-tree", "reset", "stash", "pull"])
const MAX_NAMES = 5_000

/** Add, as writes, the files each work-tree-writing git command would bring from the commits it names. */
export function gitTreeWrites(shell: ShellAnalysis, top: string | undefined, paths: CallPath[], raised: Raised): void {
  if (!top) return
  for (const c of shell.commands) {
    if (c.program !== "git") continue
    const at = c.args.findIndex((a) => !a.startsWith("-"))
    const sub = c.args[at]
    if (sub === undefined || !SUBS.has(sub) || at !== 0) continue
    const rest = c.args.slice(at + 1)
    const dash = rest.indexOf("--")
    const words = dash < 0 ? rest : rest.slice(0, dash)
    let pairs: [string, string][] = []
    if (sub === "stash") {
      if (words[0] !== "pop" && words[0] !== "apply") continue
      const s = words.slice(1).find((w) => !w.startsWith("-")) ?? "stash@{0}"
      pairs = [[`${s}^`, s]]
    } else if (sub === "restore") {
      const source = words.find((w, i) => w.startsWith("--source=") || w.startsWith("-s") && w.length > 2 || (words[i - 1] === "-s" || words[i - 1] === "--source"))
      if (!source) continue
      pairs = [["HEAD", source.replace(/^--source=|^-s/, "")]]
    } else if (sub === "pull") {
      pairs = [["HEAD", "FETCH_HEAD"]]
    } else {
      const revs = words.filter((w) => !w.startsWith("-"))
      pairs = revs.map((r) => (sub === "cherry-pick" ? [`${r}^`, r] : ["HEAD", r]) as [string, string])
    }
    for (const [from, to] of pairs) {
      const r = runGit(top, ["diff", "--name-only", "-z", "--no-renames", "--end-of-options", `${from}^{commit}`, `${to}^{commit}`])
      if (typeof r === "string") {
        raised.push({ risk: "high", reason: `${r} listing the files git ${sub} ${to} writes` })
        continue
      }
      if (r.exitCode !== 0) continue
      const names = r.stdout.toString("utf8").split("\0").filter((n) => n)
      if (names.length > MAX_NAMES) {
        raised.push({ risk: "high", reason: `git ${sub} ${to} writes more than ${MAX_NAMES} files: a .claude or hooks file among them is not ruled out` })
        continue
      }
      for (const n of names) paths.push({ path: join(top, n), access: "write" })
    }
  }
}
