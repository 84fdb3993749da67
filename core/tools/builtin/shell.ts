// shell: `bash -c` in the workspace. Streams output; on abort the whole process group dies.
import { z } from "zod"
import { defineTool, ToolFailure, type ToolContext } from "../types.ts"
import { sandboxed } from "../../sandbox/session.ts"
import { BUILTIN_DECLARATIONS } from "./declarations.ts"

const KILL_GRACE_MS = 300
const PIPE_GRACE_MS = 200

export const shell = defineTool({
  name: "shell",
  description:
    "Run a bash command in the workspace and return its combined stdout and stderr. Non-zero exit codes are errors.",
  args: z.strictObject({
    command: z.string().min(1).describe("the bash command line"),
    cwd: z.string().optional().describe("working directory, relative to the workspace"),
    timeout: z.union([z.string(), z.number()]).optional().describe("e.g. 30s, 2m"),
  }),
  risk: "safe", // the command's own analysis decides; see core/shell
  idempotent: false,
  ...BUILTIN_DECLARATIONS.shell,
  async run(args, ctx) {
    const cwd = args.cwd ? ctx.paths.resolve(args.cwd, "read") : ctx.cwd
    return runBash(args.command, cwd, ctx)
  },
})

async function runBash(command: string, cwd: string, ctx: ToolContext) {
  if (ctx.signal.aborted) throw abortFailure(ctx.signal)
  // inside the run's OS sandbox when it has one: bwrap leads the process group, and its pid
  // namespace takes every process inside down with it when the group is killed
  const { argv, env } = sandboxed(ctx.sandbox, ["bash", "-c", command], { cwd, env: ctx.env })
  const child = Bun.spawn(argv, {
    cwd,
    env,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    detached: true, // own process group, so a timeout kills `sleep 1000 & wait` children too
  })
  const killGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid, signal)
    } catch {
      // group already gone
    }
  }
  const onAbort = () => {
    killGroup("SIGTERM")
    setTimeout(() => killGroup("SIGKILL"), KILL_GRACE_MS).unref()
  }
  ctx.signal.addEventListener("abort", onAbort, { once: true })
  const chunks: string[] = []
  const collect = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder()
    for await (const bytes of stream) {
      const text = decoder.decode(bytes, { stream: true })
      if (text) {
        chunks.push(text)
        ctx.log(text)
      }
    }
  }
  const output = Promise.all([collect(child.stdout), collect(child.stderr)])
  try {
    await child.exited
    // a background child may hold the pipes open: give it a moment to finish writing, then
    // end the group — a step's background processes never outlive the step
    await Promise.race([output, Bun.sleep(PIPE_GRACE_MS)])
  } finally {
    ctx.signal.removeEventListener("abort", onAbort)
    killGroup("SIGKILL")
  }
  await output
  const text = chunks.join("")
  if (ctx.signal.aborted) {
    const failure = abortFailure(ctx.signal)
    return { text, error: { code: failure.code, type: failure.type, message: failure.message } }
  }
  const exitCode = child.exitCode ?? 128
  if (exitCode !== 0) {
    return { text, data: { exit_code: exitCode }, error: { code: "EXIT_CODE", type: "execution" as const, message: `command exited with code ${exitCode}` } }
  }
  return { text, data: { exit_code: 0 } }
}

function abortFailure(signal: AbortSignal): ToolFailure {
  const reason = signal.reason
  if (reason instanceof ToolFailure) return reason
  return new ToolFailure("CANCELLED", "execution", "the command was cancelled")
}
