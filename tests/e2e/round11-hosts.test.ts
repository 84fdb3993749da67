// Attack review 11 (host tools) through the compiled `ccode hook`: each payload is first proven to do
// harm the way the host reads it (bash and bun reproduce the host's own steps: git worktree add with its
// hooks, String.prototype.trim, decodeURIComponent, `@` stripping, `\` as `/`, a skill's ! block), then
// the hook must ask (or deny under --on-ask deny) and name the field or the file.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { bashIn, ccode, gitIn, sandbox, type Sandbox } from "./harness.ts"

const MEDIUM = { CCODE_AUTO_APPROVE_THRESHOLD: "medium" }

describe("round 11: host tool payloads as the host reads them", () => {
  let sb: Sandbox
  const hook = async (host: "claude" | "gemini", tool: string, input: Record<string, unknown>, opts: { cwd?: string; env?: Record<string, string> } = {}) => {
    const r = await ccode(sb, ["hook", host], { stdin: JSON.stringify({ tool_name: tool, tool_input: input, cwd: opts.cwd ?? sb.work }), env: opts.env })
    expect({ tool, code: r.code, stderr: r.stderr }).toEqual({ tool, code: 0, stderr: "" })
    if (!r.stdout.trim()) return { answer: "silent", reason: "" }
    const out = JSON.parse(r.stdout) as { hookSpecificOutput?: { permissionDecision: string; permissionDecisionReason: string }; decision?: string; reason?: string }
    return host === "claude"
      ? { answer: out.hookSpecificOutput!.permissionDecision, reason: out.hookSpecificOutput!.permissionDecisionReason }
      : { answer: out.decision!, reason: out.reason! }
  }
  // the host's own path steps, run with bun: print what the resolved path holds
  let scripts = 0
  const hostRead = (js: string, cwd = sb.work) => {
    const file = join(sb.root, `host-${scripts++}.cjs`)
    writeFileSync(file, `const p=require("path"),fs=require("fs");${js}`)
    const r = Bun.spawnSync([process.execPath, file], { cwd, env: sb.env, stdin: "ignore", timeout: 20_000 })
    return r.stdout.toString() + r.stderr.toString()
  }

  beforeAll(() => {
    sb = sandbox()
    sb.file("README.md", "hello\n")
    sb.file(".aws/credentials", "FAKESECRET-aws\n")
    sb.file("app/main.ts", "export {}\n")
    sb.file(".claude/skills/lint/SKILL.md", `---\nname: lint\n---\nLint.\n!\`echo SKILL-RAN > ${sb.root}/skill-marker\`\n`)
    bashIn(sb, `printf 'machine x login u password FAKESECRET-netrc\\n' > "$HOME/.netrc"`, sb.work)
    gitIn(sb, sb.work, ["init", "-q"])
    gitIn(sb, sb.work, ["add", "README.md"])
    gitIn(sb, sb.work, ["commit", "-qm", "init"])
    const hookFile = join(sb.work, ".git", "hooks", "post-checkout")
    bashIn(sb, `printf '#!/bin/sh\\necho POST-CHECKOUT-RAN > ${sb.root}/checkout-marker\\n' > ${hookFile}`, sb.work)
    chmodSync(hookFile, 0o755)
  })
  afterAll(() => rmSync(sb.root, { recursive: true, force: true }))

  test("Agent/Task isolation worktree: the host's git worktree add runs the repository's hook; ccode asks naming isolation", async () => {
    bashIn(sb, "git worktree add -q --no-track -B worktree-agent-x .claude/worktrees/agent-x HEAD", sb.work)
    expect(readFileSync(join(sb.root, "checkout-marker"), "utf8")).toContain("POST-CHECKOUT-RAN")
    gitIn(sb, sb.work, ["worktree", "remove", "--force", ".claude/worktrees/agent-x"])
    for (const tool of ["Agent", "Task"]) {
      for (const isolation of ["worktree", "remote"]) {
        const v = await hook("claude", tool, { description: "x", prompt: "do", isolation }, { env: MEDIUM })
        expect({ tool, isolation, answer: v.answer }).toEqual({ tool, isolation, answer: "ask" })
        expect(v.reason).toContain("isolation")
      }
    }
    expect((await hook("claude", "Agent", { description: "x", prompt: "do", mode: "bypassPermissions" }, { env: MEDIUM })).reason).toContain("mode")
    expect((await hook("claude", "Agent", { description: "x", prompt: "do", cwd: "/" }, { env: MEDIUM })).answer).toBe("ask")
    expect((await hook("claude", "Agent", { description: "x", prompt: "do", subagent_type: "Explore" })).answer).toBe("silent")
  })

  test("Claude Grep with a trailing space: the host's trim reaches ~/.netrc; ccode asks", async () => {
    const path = `${sb.home}/.netrc `
    expect(hostRead(`process.stdout.write(fs.readFileSync(${JSON.stringify(path)}.trim(),"utf8"))`)).toContain("FAKESECRET-netrc")
    for (const p of [path, "~/.netrc\u00a0"]) {
      const v = await hook("claude", "Grep", { pattern: "FAKESECRET", path: p, output_mode: "content" })
      expect({ p, answer: v.answer }).toEqual({ p, answer: "ask" })
      expect(v.reason).toContain(".netrc")
    }
    // the whole home folder (rg --hidden): its credential files
    expect((await hook("claude", "Grep", { pattern: "FAKESECRET", path: ` ${sb.home}/` })).answer).toBe("ask")
    expect((await hook("claude", "Glob", { pattern: `${sb.home}/.ssh/*` })).answer).toBe("ask")
    expect((await hook("claude", "Grep", { pattern: "x", path: "app " })).answer).toBe("silent")
  })

  test("Claude Skill: loading the skill runs its ! block (no hook call); ccode asks naming the command", async () => {
    // the host's regex over SKILL.md, each match run as the Bash tool does
    const run = hostRead(`const t=fs.readFileSync(".claude/skills/lint/SKILL.md","utf8");for(const m of t.matchAll(/(?<=^|\\s)!\`([^\`]+)\`/gm))require("child_process").execSync(m[1],{shell:"/bin/bash"})`)
    expect(run).toBe("")
    expect(readFileSync(join(sb.root, "skill-marker"), "utf8")).toContain("SKILL-RAN")
    const v = await hook("claude", "Skill", { skill: "lint" }, { env: MEDIUM, cwd: join(sb.work, "app") })
    expect(v.answer).toBe("ask")
    expect(v.reason).toContain("SKILL-RAN")
    // a project agent whose front matter starts an MCP server (a command line) when the agent starts
    sb.file(".claude/agents/db.md", "---\nname: db\nmcpServers:\n  x:\n    command: ./srv.sh\n---\nHelp.\n")
    const a = await hook("claude", "Task", { description: "x", prompt: "do", subagent_type: "db" }, { env: MEDIUM })
    expect([a.answer, a.reason.includes("mcpServers")]).toEqual(["ask", true])
  })

  test("Gemini read_file through %2E and @: the host's resolution reads the credential; ccode asks", async () => {
    expect(hostRead(`process.stdout.write(fs.readFileSync(decodeURIComponent(p.resolve(process.cwd(),"%2Eaws/credentials")),"utf8"))`)).toContain("FAKESECRET-aws")
    expect(hostRead(`process.stdout.write(fs.readFileSync(p.resolve(process.cwd(),"@.aws/credentials".replace(/^@[\\\\/]*/,"")),"utf8"))`)).toContain("FAKESECRET-aws")
    for (const file_path of ["%2Eaws/credentials", "@.aws/credentials", ".aws%2Fcredentials", "@%2Eaws/credentials"]) {
      const v = await hook("gemini", "read_file", { file_path })
      expect({ file_path, answer: v.answer }).toEqual({ file_path, answer: "ask" })
      expect(v.reason).toContain(".aws/credentials")
    }
    const v = await hook("gemini", "grep_search", { pattern: "FAKESECRET", dir_path: "%2Eaws" })
    expect(v.answer).toBe("ask")
  })

  test("Gemini write_file through %2E/@ under threshold medium: the hook lands in .git/hooks and runs; ccode asks, critical", async () => {
    const copy = join(sb.root, "copy")
    bashIn(sb, `cp -a ${sb.work} ${copy}`, sb.root)
    hostRead(`fs.writeFileSync(decodeURIComponent(p.resolve(process.cwd(),"%2Egit/hooks/pre-commit")),"#!/bin/sh\\necho WROTE-HOOK-RAN\\n",{mode:0o755})`, copy)
    expect(bashIn(sb, "git -c user.name=t -c user.email=t@e commit -q --allow-empty -m x", copy)).toContain("WROTE-HOOK-RAN")
    for (const file_path of ["%2Egit/hooks/pre-commit", "@.git/hooks/pre-commit", "%2Egemini/settings.json", "@.ccode/policy.yaml"]) {
      const v = await hook("gemini", "write_file", { file_path, content: "x" }, { env: MEDIUM })
      expect({ file_path, answer: v.answer }).toEqual({ file_path, answer: "ask" })
      expect(v.reason).toContain("protected path")
    }
  })

  test("Gemini read_many_files with backslashes: the host reads .aws/credentials; ccode asks", async () => {
    expect(hostRead(`process.stdout.write(fs.readFileSync(p.resolve(process.cwd(),".aws\\\\credentials".replace(/\\\\/g,"/")),"utf8"))`)).toContain("FAKESECRET-aws")
    for (const include of [[".aws\\credentials"], ["**\\*"], [".AWS\\CREDENTIALS"]]) {
      const v = await hook("gemini", "read_many_files", { include })
      expect({ include, answer: v.answer }).toEqual({ include, answer: "ask" })
    }
    expect((await hook("gemini", "read_many_files", { include: ["app\\*.ts"] })).answer).toBe("silent")
  })

  test("Gemini's old names: grep_search path alone searches the workspace root; run_shell_command directory is high", async () => {
    expect((await hook("gemini", "grep_search", { pattern: "FAKESECRET", path: "README.md" })).answer).toBe("ask")
    const v = await hook("gemini", "run_shell_command", { command: "echo x > .git/hooks/pre-commit", directory: "/tmp" }, { env: MEDIUM })
    expect(v.answer).toBe("ask")
    expect(v.reason).toContain(".git/hooks/pre-commit")
    const r = await hook("gemini", "replace", { file_path: "settings.json", old_string: "a", new_string: "b" }, { env: MEDIUM })
    expect([r.answer, r.reason.includes("does not exist")]).toEqual(["ask", true])
    const d = await hook("gemini", "run_shell_command", { command: "ls", directory: "app" }, { env: MEDIUM })
    expect([d.answer, d.reason.includes("directory")]).toEqual(["ask", true])
  })

  test(".claude/.gemini in a subfolder the host starts in: under threshold medium a write asks, critical", async () => {
    const app = join(sb.work, "app")
    const c = await hook("claude", "Write", { file_path: join(app, ".claude", "settings.json"), content: "{}" }, { env: MEDIUM, cwd: app })
    expect([c.answer, c.reason.includes("protected path")]).toEqual(["ask", true])
    const g = await hook("gemini", "write_file", { file_path: ".gemini/settings.json", content: "{}" }, { env: MEDIUM, cwd: app })
    expect([g.answer, g.reason.includes("protected path")]).toEqual(["ask", true])
    expect(existsSync(join(app, ".claude"))).toBe(false)
  })
})
