// The agent examples as a user runs them: the replay example offline, the Ollama example against an
// OpenAI-compatible server (a scripted one on 127.0.0.1 standing in for Ollama).
import { afterEach, describe, expect, test } from "bun:test"
import { cpSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { scriptedServer, type ScriptedServer } from "../fixtures/llm/server.ts"
import { ccode, events, sandbox } from "./harness.ts"

const EXAMPLES = join(import.meta.dir, "..", "..", "examples")
let server: ScriptedServer | undefined
afterEach(() => {
  server?.close()
  server = undefined
})

describe("agent examples", () => {
  test("agent-replay runs offline: the fix lands in the copy, the force push is refused, exit 0", async () => {
    const sb = sandbox()
    cpSync(join(EXAMPLES, "agent-replay"), join(sb.work, "agent-replay"), { recursive: true })
    const result = await ccode(sb, ["run", "agent-replay/task.yaml", "--yes", "--json"])
    expect(result.code).toBe(0)
    const evs = events(result.stdout)
    const denied = evs.filter((e) => e.type === "decision" && e.decision === "deny")
    expect(denied).toHaveLength(1)
    expect(denied[0]!.rules).toEqual([expect.objectContaining({ id: "no-force-push" })])
    expect(evs.filter((e) => e.type === "agent.message")).toHaveLength(6)
    expect(evs.at(-1)).toMatchObject({ type: "run.finished", status: "completed", exit_code: 0, steps: 6, denied: 1 })
    expect(readFileSync(join(sb.work, "agent-replay/.agent-replay/greet.sh"), "utf8")).toContain('echo "Hello, world!"')
    expect(readFileSync(join(sb.work, "agent-replay/project/greet.sh"), "utf8")).toContain('echo "Hello world"')
  }, 60_000)

  test("agent-ollama works against an OpenAI-compatible server at its base_url", async () => {
    server = scriptedServer({
      protocol: "openai",
      turns: [
        { text: "Reading the script.", calls: [{ tool: "read_file", args: { path: "sum.sh" } }] },
        { calls: [{ tool: "edit_file", args: { path: "sum.sh", old_string: "$1 - $2", new_string: "$1 + $2" } }] },
        { calls: [{ tool: "shell", args: { command: "sh check.sh" } }] },
        { text: "sum.sh adds now and the check passes." },
      ],
    })
    const sb = sandbox()
    const dir = join(sb.work, "agent-ollama")
    cpSync(join(EXAMPLES, "agent-ollama"), dir, { recursive: true })
    const task = join(dir, "task.yaml")
    writeFileSync(task, readFileSync(task, "utf8").replace("http://localhost:11434/v1", server.url))
    const result = await ccode(sb, ["run", "agent-ollama/task.yaml", "--yes", "--json"])
    expect(result.code).toBe(0)
    expect(readFileSync(join(dir, "project/sum.sh"), "utf8")).toContain("$1 + $2")
    const first = server.requests[0]!
    expect(first.body.model).toBe("qwen2.5-coder:7b")
    expect(first.body.temperature).toBe(0.2)
    expect((first.body.tools as { function: { name: string } }[]).map((t) => t.function.name)).toContain("ask_user")
    expect(String((first.body.messages as { content: string }[])[0]!.content)).toContain("Do not touch check.sh")
    expect(events(result.stdout).at(-1)).toMatchObject({ status: "completed", message: "sum.sh adds now and the check passes." })
  }, 60_000)
})
