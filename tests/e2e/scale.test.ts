// Big workspaces through the compiled binary: an edit and a new file made between two calls in a
// 20,000-file git repository are caught (the file watch, not a whole-tree look) and undo is still
// byte-identical; a change in a plain folder of 60,000 files is caught wherever it is (no cap), and
// the run's checkpoints stay small.
import { Database } from "bun:sqlite"
import { afterEach, describe, expect, test } from "bun:test"
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { stringify } from "yaml"
import { scriptedServer, type ScriptedServer } from "../fixtures/llm/server.ts"
import { treeState } from "../snapshot/tree.ts"
import { ccode, events, sandbox, spawnCcode, waitFor, type Sandbox } from "./harness.ts"

const KEY = { LLM_KEY: "sk-e2e" }
let servers: ScriptedServer[] = []
afterEach(() => {
  for (const s of servers) s.close()
  servers = []
})

/** `count` small files, 100 to a directory. */
function manyFiles(sb: Sandbox, count: number): void {
  for (let i = 0; i < count; i++) {
    const dir = join(sb.work, `d${String(Math.floor(i / 100)).padStart(4, "0")}`)
    if (i % 100 === 0) mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, `f${String(i % 100).padStart(3, "0")}.txt`), `file ${i}\n`)
  }
}

function commitAll(sb: Sandbox): void {
  const env = { ...sb.env, GIT_CONFIG_NOSYSTEM: "1" }
  for (const args of [["init", "-q"], ["add", "-A"], ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "init"]]) {
    expect(Bun.spawnSync(["git", ...args], { cwd: sb.work, env }).exitCode).toBe(0)
  }
}

const guards = (stdout: string) => events(stdout).filter((e) => e.type === "guard")

describe("big workspaces (compiled binary)", () => {
  test("20,000-file git repository: an edit and an untracked new file made while the model thinks are caught; undo is byte-identical", async () => {
    const sb = sandbox()
    manyFiles(sb, 20_000)
    commitAll(sb)
    const server = scriptedServer({
      protocol: "openai", apiKey: KEY.LLM_KEY, delayMs: 1500,
      turns: [
        { calls: [{ tool: "shell", args: { command: "echo one > out.txt && echo changed >> d0001/f001.txt" } }] },
        { calls: [{ tool: "shell", args: { command: "echo two >> out.txt" } }] },
        { text: "done" },
      ],
    })
    servers.push(server)
    writeFileSync(join(sb.root, "task.yaml"), stringify({
      version: 1, name: "scale", workdir: sb.work,
      agent: { provider: "openai", model: "m", base_url: server.url, api_key_env: "LLM_KEY", goal: "write out.txt" },
      policy: { approval: { mode: "auto", threshold: "high" } },
    }))
    const before = treeState(sb.work)
    const proc = await spawnCcode(sb, ["run", join(sb.root, "task.yaml"), "--json", "--trust"], { env: KEY })
    // the second request is sent once the first call and ccode's look after it are done
    await waitFor(() => server.requests.length >= 2, 120_000)
    writeFileSync(join(sb.work, "d0150", "f050.txt"), "edited by a person\n")
    writeFileSync(join(sb.work, "d0199", "fresh.txt"), "a new file\n")
    const stdout = await new Response(proc.stdout).text()
    expect(await proc.exited).toBe(4)
    const [guard] = guards(stdout)
    expect(guard).toMatchObject({ guard: "external_change" })
    expect(guard!.evidence).toMatchObject({ modified: ["d0150/f050.txt"], added: ["d0199/fresh.txt"], removed: [] })
    // the call after the edit never ran
    expect(events(stdout).filter((e) => e.type === "step.finished")).toHaveLength(1)

    const runId = String(events(stdout)[0]!.run)
    const undo = await ccode(sb, ["undo", runId])
    expect(undo.code).toBe(0)
    // undo puts back what the run changed, byte for byte, and leaves the person's edits alone
    const after = treeState(sb.work)
    expect(after["d0150/f050.txt"]).not.toBe(before["d0150/f050.txt"])
    expect(after["d0199/fresh.txt"]).toBeDefined()
    const { ["d0150/f050.txt"]: _edited, ["d0199/fresh.txt"]: _fresh, ...rest } = after
    expect({ ...rest, "d0150/f050.txt": before["d0150/f050.txt"] } as Record<string, string | undefined>).toEqual(before as Record<string, string | undefined>)
  }, 240_000)

  test("a plain folder of 60,000 files: a change in every directory is caught on resume, and checkpoints stay small", async () => {
    const sb = sandbox()
    manyFiles(sb, 60_000)
    writeFileSync(join(sb.root, "task.yaml"), stringify({ version: 1, name: "wide", workdir: sb.work, steps: [
      { id: "first", run: "echo one > out.txt" },
      { id: "gate", needs: ["first"], breakpoint: true, run: "echo two >> out.txt" },
    ] }))
    const paused = await ccode(sb, ["run", join(sb.root, "task.yaml"), "--yes", "--json"], { timeoutMs: 200_000 })
    expect(paused.code).toBe(3)
    const runId = String(events(paused.stdout)[0]!.run)
    // one file in each of the 600 directories: with a 50,000-file cap a sixth of them went unseen
    for (let d = 0; d < 600; d++) writeFileSync(join(sb.work, `d${String(d).padStart(4, "0")}`, "f099.txt"), "edited\n")
    expect((await ccode(sb, ["approve", runId, "--all"])).code).toBe(0)
    const stopped = await ccode(sb, ["resume", runId, "--json"], { timeoutMs: 200_000 })
    expect(stopped.code).toBe(4)
    const [guard] = guards(stopped.stdout)
    expect(guard).toMatchObject({ guard: "external_change" })
    expect((guard!.evidence as { modified: string[] }).modified).toHaveLength(600)
    const db = new Database(sb.db, { readonly: true })
    const biggest = db.query("SELECT max(length(state)) AS n FROM checkpoints").get() as { n: number }
    db.close()
    expect(biggest.n).toBeLessThan(200_000)
  }, 400_000)
})
