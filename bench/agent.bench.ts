// ccode's overhead per agent turn: the compiled binary runs an agent task against a scripted
// OpenAI-compatible server on 127.0.0.1 that answers at once; each turn makes one small read_file
// call. Overhead = (a 201-turn run - a 1-turn run) / 200, so startup and the end of the run cancel
// out: request building and parsing, decisions, the tool, checkpoints, events — everything but the
// model. Measured as the ccode process's CPU time (waiting for the model is not CPU time, and a busy
// machine does not inflate it), and as wall time minus the server's own time.
// Budget: <= 5 ms per turn. Run alone: `bun run bench/agent.bench.ts`.
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { stringify } from "yaml"
import { scriptedServer, type ScriptedTurn } from "../tests/fixtures/llm/server.ts"
import { benchBinary, report, scratch } from "./lib.ts"

const TURNS = 200
const bin = await benchBinary()

// one line per turn, read one at a time: distinct calls and outputs, so no loop or stall guard fires
const readLine = (i: number): ScriptedTurn => ({ calls: [{ tool: "read_file", args: { path: "data.txt", offset: i + 1, limit: 1 } }], usage: { input: 50, output: 10 } })

async function timeRun(turns: number): Promise<{ ms: number; cpuMs: number; serverMs: number; requests: number }> {
  const script: ScriptedTurn[] = [...Array.from({ length: turns }, (_, i) => readLine(i)), { text: "done" }]
  const server = scriptedServer({ protocol: "openai", turns: script })
  const sb = scratch()
  writeFileSync(join(sb.dir, "data.txt"), Array.from({ length: turns }, (_, i) => `line ${letters(i)}`).join("\n") + "\n")
  writeFileSync(
    join(sb.dir, "task.yaml"),
    stringify({
      version: 1,
      name: "agent-bench",
      agent: { provider: "openai-compatible", model: "bench", base_url: server.url, goal: "read data.txt line by line", tools: ["read_file"] },
      policy: { limits: { max_steps: turns + 10, max_tool_calls: turns + 10 }, workspace: { detect_external_changes: false } },
    }),
  )
  const started = performance.now()
  const proc = Bun.spawn([bin, "run", "task.yaml", "--non-interactive", "--quiet", "--trust"], { cwd: sb.dir, env: sb.env, stdout: "ignore", stderr: "pipe" })
  const code = await proc.exited
  const ms = performance.now() - started
  server.close()
  if (code !== 0) throw new Error(`the bench run failed (exit ${code}): ${await new Response(proc.stderr).text()}`)
  const cpuMs = Number(proc.resourceUsage()?.cpuTime.total ?? 0n) / 1000
  return { ms, cpuMs, serverMs: server.requests.reduce((sum, r) => sum + r.handlerMs, 0), requests: server.requests.length }
}

await timeRun(1) // warm the page cache and the binary
const short = await timeRun(1)
const long = await timeRun(TURNS)
if (long.requests !== TURNS + 1) throw new Error(`expected ${TURNS + 1} model requests, the server saw ${long.requests}`)
const cpuPerTurn = (long.cpuMs - short.cpuMs) / TURNS
const wallPerTurn = (long.ms - short.ms - (long.serverMs - short.serverMs)) / TURNS
report({ name: `agent overhead per turn, CPU (${TURNS} turns, one read_file each, local scripted server)`, value: round(cpuPerTurn), unit: "ms/turn", budget: "<= 5", ok: cpuPerTurn <= 5 })
report({ name: "agent overhead per turn, wall (same runs, minus the server's time)", value: round(wallPerTurn), unit: "ms/turn" })
report({ name: `agent run of ${TURNS} turns (total, incl. startup)`, value: Math.round(long.ms), unit: "ms" })
report({ name: "scripted server's own time over those turns", value: Math.round(long.serverMs), unit: "ms" })

// the stall guard compares outputs with digits normalised away: lines differ by letters
function letters(n: number): string {
  let out = ""
  do {
    out = String.fromCharCode(97 + (n % 26)) + out
    n = Math.floor(n / 26)
  } while (n > 0)
  return out
}

function round(n: number): number {
  return Math.round(n * 100) / 100
}
