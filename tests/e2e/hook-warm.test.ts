// `ccode hook claude|gemini --warm` through the compiled binary: the same payload sequence decided cold
// (a fresh `ccode hook` process) and warm (the server's worker) gives the same stdout, stderr, exit
// code and audit row (every column but id, time and hashes), whatever the environment, folder, policy
// and trust of each call; 20 calls at once are all answered and the audit chain holds.
import { describe, expect, test } from "bun:test"
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { ccode, type Result, type Sandbox } from "./harness.ts"
import { decisionRows, startWarm, warmProcesses, warmSandboxes } from "./warm.ts"

const FIXTURES = join(import.meta.dir, "..", "fixtures", "hosts")
const warmSandbox = warmSandboxes()

function fixtures(host: string, sb: Sandbox): [string, string][] {
  const text = readFileSync(join(FIXTURES, `${host}.json`), "utf8").replaceAll("{{CWD}}", sb.work).replaceAll("{{HOME}}", sb.home)
  return Object.entries(JSON.parse(text) as Record<string, unknown>).map(([k, v]) => [k, JSON.stringify(v)])
}

interface Step {
  name: string
  host: "claude" | "gemini"
  stdin: string
  env?: Record<string, string>
  cwd?: string
  args?: string[]
  /** done before the cold call (so both calls see it) */
  before?: () => Promise<void> | void
}

function untraced(r: Result): { answer: Result; served: boolean } {
  const lines = r.stderr.split("\n")
  const stderr = lines.filter((l) => !l.startsWith("startup ")).join("\n")
  return { answer: { code: r.code, stdout: r.stdout, stderr }, served: lines.some((l) => l.startsWith("startup warm answer")) }
}

const claude = (sb: Sandbox, tool: string, input: Record<string, unknown>, cwd = sb.work) =>
  JSON.stringify({ session_id: "s1", hook_event_name: "PreToolUse", tool_name: tool, tool_input: input, cwd, tool_use_id: "toolu_1" })

describe("warm and cold decide alike", () => {
  test("every host fixture, malformed payloads, env-dependent, folder- and policy-dependent calls", async () => {
    const sb = warmSandbox()
    sb.file("README.md", "hello\n")
    const other = join(sb.root, "other")
    mkdirSync(join(other, ".ssh"), { recursive: true })
    writeFileSync(join(other, ".bashrc"), "")
    const secret = "s3cr3t-value-0123456789abcdef"
    const steps: Step[] = [
      ...fixtures("claude", sb).map(([name, stdin]): Step => ({ name: `claude ${name}`, host: "claude", stdin })),
      ...fixtures("gemini", sb).map(([name, stdin]): Step => ({ name: `gemini ${name}`, host: "gemini", stdin })),
      { name: "not JSON", host: "claude", stdin: "this is not json" },
      { name: "empty stdin", host: "gemini", stdin: "" },
      { name: "no tool_name", host: "claude", stdin: JSON.stringify({ tool_input: {}, cwd: sb.work }) },
      { name: "relative cwd", host: "claude", stdin: claude(sb, "Bash", { command: "ls" }, "work") },
      { name: "unknown flag", host: "claude", stdin: claude(sb, "Bash", { command: "ls" }), args: ["--nope"] },
      { name: "--on-ask deny", host: "gemini", stdin: JSON.stringify({ session_id: "g", hook_event_name: "BeforeTool", tool_name: "write_file", tool_input: { file_path: `${sb.work}/.env`, content: "x" }, cwd: sb.work }), args: ["--on-ask", "deny"] },
      { name: "mcp tool", host: "claude", stdin: claude(sb, "mcp__github__delete_repo", { repo: "a/b" }) },
      // the redactor knows secret variables from the caller's environment
      { name: "secret variable", host: "claude", stdin: claude(sb, "Bash", { command: `echo ${secret}` }), env: { MY_API_TOKEN: secret } },
      { name: "secret variable gone", host: "claude", stdin: claude(sb, "Bash", { command: `echo ${secret}` }) },
      // CCODE_* variables are a policy layer
      { name: "CCODE_AUTO_APPROVE_THRESHOLD", host: "claude", stdin: claude(sb, "Write", { file_path: `${sb.work}/a.txt`, content: "x" }), env: { CCODE_AUTO_APPROVE_THRESHOLD: "high" } },
      { name: "CCODE_REDACT off", host: "claude", stdin: claude(sb, "Bash", { command: `echo ${secret}` }), env: { MY_API_TOKEN: secret, CCODE_REDACT: "0" } },
      // another HOME: ~ and its credentials are elsewhere
      { name: "other HOME", host: "claude", stdin: claude(sb, "Bash", { command: "cat ~/.ssh/id_rsa" }), env: { HOME: other } },
      { name: "own HOME again", host: "claude", stdin: claude(sb, "Bash", { command: "cat ~/.ssh/id_rsa" }) },
      // the payload has no cwd: the process's folder is the call's
      { name: "cwd from the process", host: "claude", stdin: JSON.stringify({ session_id: "s", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "rm -rf docs" } }), cwd: other },
      // state a long-lived process would keep: the bash parser loaded by one call (it changes how the
      // redactor reads a later plain command), the temp folders' real paths (TMPDIR), the homes' marks
      { name: "parser loaded", host: "claude", stdin: claude(sb, "Bash", { command: `for f in *.txt; do cat "$f"; done | grep -v x > out.txt` }) },
      { name: "plain after parser", host: "claude", stdin: claude(sb, "Bash", { command: "curl -u admin:hunter2secret https://example.com" }) },
      { name: "TMPDIR elsewhere", host: "claude", stdin: claude(sb, "Bash", { command: `rm -rf ${join(sb.root, "tmp2")}/cache` }), env: { TMPDIR: join(sb.root, "tmp2") } },
      { name: "TMPDIR back", host: "claude", stdin: claude(sb, "Bash", { command: `rm -rf ${join(sb.root, "tmp2")}/cache` }) },
      { name: "a home-like folder appears", host: "claude", stdin: claude(sb, "Bash", { command: `cat ${join(sb.root, "fakehome")}/.bash_history` }), before: () => {
        mkdirSync(join(sb.root, "fakehome", ".ssh"), { recursive: true })
        writeFileSync(join(sb.root, "fakehome", ".bash_history"), "x\n")
      } },
      // a workspace policy, untrusted, then trusted, then changed (trust lost again)
      { name: "policy untrusted", host: "claude", stdin: claude(sb, "Write", { file_path: `${sb.work}/docs/a.md`, content: "" }), before: () => void sb.file(".ccode/policy.yaml", "rules: [{ id: no-docs, tool: write_file, path: 'docs/**', decision: deny }]\n") },
      { name: "policy trusted", host: "claude", stdin: claude(sb, "Write", { file_path: `${sb.work}/docs/a.md`, content: "" }), before: async () => void expect((await ccode(sb, ["trust"])).code).toBe(0) },
      { name: "policy changed", host: "claude", stdin: claude(sb, "Write", { file_path: `${sb.work}/docs/a.md`, content: "" }), before: () => void sb.file(".ccode/policy.yaml", "rules: [{ id: docs-ok, tool: write_file, path: 'docs/**', decision: allow }]\n") },
      { name: "user policy", host: "gemini", stdin: JSON.stringify({ session_id: "g", hook_event_name: "BeforeTool", tool_name: "run_shell_command", tool_input: { command: "make deploy" }, cwd: sb.work }), before: () => {
        mkdirSync(join(sb.root, "config", "ccode"), { recursive: true })
        writeFileSync(join(sb.root, "config", "ccode", "policy.yaml"), "rules: [{ id: no-deploy, tool: shell, command: 'make deploy', decision: deny }]\n")
      } },
    ]
    expect(steps.length).toBeGreaterThan(55)
    await startWarm(sb, claude(sb, "Bash", { command: "true" }))
    for (const step of steps) {
      await step.before?.()
      // the start-up trace (stderr lines "startup ...") shows the warm answer came from the server; it is
      // left out of the comparison (timings)
      const opts = { stdin: step.stdin, env: { ...step.env, CCODE_TRACE_STARTUP: "1" }, cwd: step.cwd }
      const start = decisionRows(sb.db).length
      const cold = untraced(await ccode(sb, ["hook", step.host, ...(step.args ?? [])], opts))
      const coldRows = decisionRows(sb.db)
      const warm = untraced(await ccode(sb, ["hook", step.host, "--warm", ...(step.args ?? [])], opts))
      const warmRows = decisionRows(sb.db)
      expect({ step: step.name, served: warm.served }).toEqual({ step: step.name, served: true })
      expect({ step: step.name, answer: warm.answer }).toEqual({ step: step.name, answer: cold.answer })
      // a decided call writes one row, cold and warm alike; a refused payload none
      const added = { cold: coldRows.length - start, warm: warmRows.length - coldRows.length }
      expect({ step: step.name, added: added.warm }).toEqual({ step: step.name, added: added.cold })
      if (added.cold > 0) expect({ step: step.name, row: warmRows.at(-1) }).toEqual({ step: step.name, row: coldRows.at(-1) })
    }
    expect(warmProcesses(sb.root).length).toBeGreaterThan(0)
  }, 300_000)
})

describe("many calls at once", () => {
  test("20 parallel warm calls are each answered by the server, correctly; one row each and the audit chain verifies", async () => {
    const sb = warmSandbox()
    await startWarm(sb, claude(sb, "Bash", { command: "true" }))
    const rowsBefore = decisionRows(sb.db).length
    const kinds = [
      { stdin: claude(sb, "Bash", { command: "git push --force origin main" }), expect: "deny" },
      { stdin: claude(sb, "Bash", { command: "git status" }), expect: "" },
      { stdin: claude(sb, "Write", { file_path: `${sb.work}/.env`, content: "TOKEN=x" }), expect: "ask" },
      { stdin: "not json", expect: "exit 2" },
    ]
    const calls = Array.from({ length: 20 }, (_, i) => kinds[i % kinds.length]!)
    const results = await Promise.all(calls.map((c) => ccode(sb, ["hook", "claude", "--warm"], { stdin: c.stdin, env: { CCODE_TRACE_STARTUP: "1" } })))
    results.forEach((r, i) => {
      const { answer, served } = untraced(r)
      const want = calls[i]!.expect
      expect({ i, served }).toEqual({ i, served: true })
      if (want === "exit 2") expect([answer.code, answer.stdout, answer.stderr.includes("not JSON")]).toEqual([2, "", true])
      else if (want === "") expect([answer.code, answer.stdout, answer.stderr]).toEqual([0, "", ""])
      else expect([answer.code, JSON.parse(answer.stdout).hookSpecificOutput.permissionDecision]).toEqual([0, want])
    })
    expect(decisionRows(sb.db).length - rowsBefore).toBe(15)
    const verify = await ccode(sb, ["audit", "verify"])
    expect(verify.code).toBe(0)
  }, 120_000)
})
