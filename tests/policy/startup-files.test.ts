// A workspace that IS the home (an agent started in ~, a CI job whose workspace is $HOME): the start-up
// files there are workspace files, yet the next shell, git, python or editor runs what they say. Host
// write tools (write_file, edit_file: Claude's Write/Edit, Gemini's write_file/replace) and shell writes
// are judged alike, so the bundled `ci` policy never auto-approves them. Real files in a temp folder.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { loadParser } from "../../core/shell/index.ts"
import { prepareCall } from "../../core/policy/prepare.ts"
import { decide } from "../../core/policy/decide.ts"
import { bundledPolicy } from "../../core/policy/bundled.ts"

const STARTUP = [
  ".bashrc", ".zshenv", ".zlogin", ".bash_logout", ".config/fish/config.fish", ".pam_environment", ".xprofile", ".xinitrc",
  ".gitconfig", ".config/git/config", ".config/systemd/user/x.service", ".config/autostart/x.desktop",
  ".local/lib/python3.11/site-packages/x.pth", ".local/lib/python3.12/site-packages/usercustomize.py", ".ipython/profile_default/startup/x.py",
  ".cargo/config.toml", ".config/direnv/direnvrc", ".vimrc", ".config/nvim/init.lua", ".emacs", ".emacs.d/init.el", ".gdbinit",
  ".codex/config.toml", ".config/Code/User/settings.json", ".pythonrc", ".tmux.conf", ".curlrc", ".bunfig.toml", ".GITCONFIG",
  // review 8B: mail, REPL and debugger start-up files, Jupyter, PowerShell, sbt plugins, bash-completion
  ".mailcap", ".forward", ".muttrc", ".gemrc", ".condarc", ".ghci", ".pdbrc", ".erlang", ".mongoshrc.js", ".lldbinit",
  ".jupyter/jupyter_notebook_config.py", ".config/powershell/Microsoft.PowerShell_profile.ps1", ".sbt/1.0/plugins/x.sbt",
  ".bash_completion", ".julia/config/startup.jl",
]

describe("start-up files when the workspace is the home", () => {
  let home: string
  beforeAll(async () => {
    await loadParser()
    home = realpathSync(mkdtempSync(join(tmpdir(), "ccode-startup-")))
    mkdirSync(join(home, "proj"))
  })
  afterAll(() => rmSync(home, { recursive: true, force: true }))

  const decideAt = async (policy: "default" | "ci", tool: string, args: Record<string, unknown>, workspace = home) => {
    const call = await prepareCall(tool, args, { cwd: workspace, workspace, home, tmpDirs: ["/nonexistent-tmp"], toolRisk: tool === "shell" ? undefined : "medium", policy: bundledPolicy(policy) })
    return decide(bundledPolicy(policy), call, { grants: [] })
  }

  test("write_file and edit_file to a start-up file ask critical under ci, the file named", async () => {
    for (const path of STARTUP) {
      for (const [tool, args] of [["write_file", { path, content: "x" }], ["edit_file", { path, old: "a", new: "b" }], ["write_file", { path: join(home, path), content: "x" }]] as const) {
        const d = await decideAt("ci", tool, args)
        expect({ path, tool, decision: d.decision, risk: d.risk, named: d.reason.includes("startup file") }).toEqual({ path, tool, decision: "ask", risk: "critical", named: true })
      }
    }
  })

  test("shell writes to the same files ask critical under ci", async () => {
    for (const path of STARTUP) {
      for (const command of [`echo x >> ${path}`, `echo x > ~/${path}`, `cp a ${path}`]) {
        const d = await decideAt("ci", "shell", { command })
        expect({ command, decision: d.decision, risk: d.risk, named: d.reason.includes("startup file") }).toEqual({ command, decision: "ask", risk: "critical", named: true })
      }
    }
  })

  test("controls: ordinary files in the home and in a project below it stay medium (allowed under ci)", async () => {
    for (const path of ["notes.txt", "proj/.bashrc", "proj/.gitconfig", ".config/app/settings.json", ".local/lib/python3.11/site-packages/mod.py", "src/.vimrc.example"]) {
      const d = await decideAt("ci", "write_file", { path, content: "x" })
      expect({ path, decision: d.decision, risk: d.risk }).toEqual({ path, decision: "allow", risk: "medium" })
    }
    const proj = join(home, "proj")
    for (const command of ["echo x > .gitconfig", "echo x > .bashrc", "cp .vimrc backup/"]) {
      const d = await decideAt("ci", "shell", { command }, proj)
      expect({ command, decision: d.decision }).toEqual({ command, decision: "allow" })
    }
  })
})
