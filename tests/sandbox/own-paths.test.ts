import { afterAll, describe, expect, test } from "bun:test"
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { runSandbox, sandboxed, type Sandbox } from "../../core/sandbox/session.ts"
import { sandboxOwnPaths } from "../../core/sandbox/defaults.ts"
import { copyWorkspace } from "../../core/sandbox/preview.ts"
import type { SandboxPolicy } from "../../core/policy/types.ts"
import type { ToolResult } from "../../core/tools/types.ts"

// A workspace that is the home folder, with ccode's data folder (CCODE_HOME) and its configuration inside
// it, and a second workspace's snapshot in the data folder: what a sandboxed command may see and make.
const root = realpathSync(mkdtempSync(join(tmpdir(), "ccode-sbx-own-")))
afterAll(() => rmSync(root, { recursive: true, force: true }))
const home = join(root, "home")
const data = join(home, ".local", "share", "ccode")
const config = join(home, ".config", "ccode")
mkdirSync(join(data, "snapshots", "other"), { recursive: true })
mkdirSync(join(home, ".ssh"), { recursive: true })
writeFileSync(join(data, "ccode.db"), "trust rows")
writeFileSync(join(data, "snapshots", "other", "env"), "API_KEY=FAKESECRET-other-workspace")
writeFileSync(join(home, ".netrc"), "machine y login u password FAKESECRET-netrc")
writeFileSync(join(home, ".ssh", "id_rsa"), "FAKESECRET-idrsa")
const policy: SandboxPolicy = { mode: "auto", network: "none", writable: [], hidden: [], read_only: [], preview: false }
const ok: ToolResult = { status: "ok", text: "", stats: { duration_ms: 1, bytes: 0 } }
const own = sandboxOwnPaths({ dirs: [data, config], dbs: [join(data, "ccode.db")] })
const boxOf = (run: string, store = data): Sandbox =>
  runSandbox({ status: { mode: "auto", bwrap: "/usr/bin/bwrap", notes: [] }, policy, protectedGlobs: [], workspace: home, home, runDir: join(store, "runs", run), netDir: join(store, "net"), own })!

function run(box: Sandbox, script: string, cwd = home): { out: string; result: ToolResult } {
  const { argv, env } = sandboxed(box, ["bash", "-c", script], { cwd, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home } })
  const done = Bun.spawnSync(argv, { cwd, env })
  const out = done.stdout.toString() + done.stderr.toString()
  const result = box.explain(done.exitCode === 0 ? { ...ok, text: out } : { status: "error", text: out, error: { code: "EXIT_CODE", type: "execution", message: "exit" }, stats: ok.stats }, cwd)
  return { out, result }
}

describe("ccode's own data folder inside a writable workspace", () => {
  test("is hidden: no trust row written, no other workspace's snapshot read; the run's temp dir still works", () => {
    const box = boxOf("r1")
    const { out } = run(box, `cat ${data}/snapshots/other/env; cat ${data}/ccode.db; echo forged > ${data}/ccode.db; ` +
      `echo planted > ${data}/cache.json; echo tmp-ok > "$TMPDIR/x" && cat "$TMPDIR/x"; ls -A ${data}`)
    expect(out).not.toContain("FAKESECRET-other-workspace")
    expect(out).not.toContain("trust rows")
    expect(out).toContain("tmp-ok")
    expect(readFileSync(join(data, "ccode.db"), "utf8")).toBe("trust rows")
    expect(existsSync(join(data, "cache.json"))).toBe(false)
    // the temp dir is the host's: ccode reads $CCODE_OUTPUT there after the call
    expect(readFileSync(join(data, "runs", "r1", "tmp", "x"), "utf8")).toBe("tmp-ok\n")
  })

  test("the user policy (MCP tokens) is not readable either", () => {
    mkdirSync(config, { recursive: true })
    writeFileSync(join(config, "policy.yaml"), "env: { TOKEN: FAKESECRET-userpolicy }")
    const { out } = run(boxOf("r2"), `cat ${config}/policy.yaml; echo x > ${config}/policy.yaml`)
    expect(out).not.toContain("FAKESECRET-userpolicy")
    expect(readFileSync(join(config, "policy.yaml"), "utf8")).toContain("FAKESECRET-userpolicy")
    rmSync(config, { recursive: true })
  })
})

describe("protected paths that do not exist yet", () => {
  test("a user plugin folder, a shell startup file or ~/.local/bin a step makes is moved aside and the call refused", () => {
    const box = boxOf("r3")
    const { result } = run(box, `mkdir -p ${config}/plugins && echo 'evil()' > ${config}/plugins/evil.ts; echo 'curl x|sh' > ~/.bashrc; mkdir -p ~/.local/bin; touch ~/ok.txt`)
    expect(result.error?.code).toBe("SANDBOX_BLOCKED")
    expect(result.error?.message).toContain(config)
    expect(existsSync(config)).toBe(false)
    expect(existsSync(join(home, ".bashrc"))).toBe(false)
    expect(existsSync(join(home, ".local", "bin"))).toBe(false)
    // kept for review, under another name nothing reads
    expect(existsSync(join(home, "ok.txt"))).toBe(true)
  })

  test("a call that makes none of them is left as it was", () => {
    const { result } = run(boxOf("r4"), "echo fine > ~/notes.txt")
    expect(result.status).toBe("ok")
  })
})

describe("a preview's scratch copy of a workspace that is the home", () => {
  test("hides the copies of the hidden credentials as the originals are hidden", () => {
    // (a CCODE_HOME outside: a preview cannot copy a workspace into a folder of its own)
    const store = join(root, "store")
    const box = boxOf("r5", store)
    const scratch = copyWorkspace(home, join(store, "runs", "r5", "preview", "c1"))
    const { out } = run(box.within(scratch), "cat .netrc .ssh/id_rsa; echo x > leak.txt", scratch)
    expect(out).not.toContain("FAKESECRET-netrc")
    expect(out).not.toContain("FAKESECRET-idrsa")
    expect(readFileSync(join(scratch, "leak.txt"), "utf8")).toBe("x\n")
  })
})
