// shell: `bash -c` in the workspace. Streams output into a bounded window; the step's real exit
// status is taken the moment bash exits, whatever happens after; its group and every escape from
// it are killed at step end, timeout and cancel — a step's processes never outlive the step.
import { constants } from "node:os"
import { z } from "zod"
import { sandboxed } from "../../sandbox/session.ts"
import { OutputWindow } from "../process/capture.ts"
import { forget, killStep, signalStep, track } from "../process/kill.ts"
import { spawnStep } from "../process/spawn.ts"
import { bootTicks } from "../process/table.ts"
import { defineTool, ToolFailure, type ToolContext, type ToolOutput } from "../types.ts"
import { BUILTIN_DECLARATIONS } from "./declarations.ts"

/** After SIGTERM (timeout, cancel), how long the step may take to end before SIGKILL. */
const KILL_GRACE_MS = 300
/** After bash exits, how long background children may go on writing before they are ended. */
const PIPE_GRACE_MS = 200
const GC_EVERY_BYTES = 8 * 1024 * 1024

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
    return runBash(command(args.command), cwd, ctx)
  },
})

function command(text: string): string[] {
  return ["bash", "-c", text]
}

async function runBash(argv: string[], cwd: string, ctx: ToolContext): Promise<ToolOutput> {
  if (ctx.signal.aborted) throw abortFailure(ctx.signal)
  const tag = ctx.callId
  // inside the run's OS sandbox when it has one: bwrap leads the process group, and its pid
  // namespace takes every process inside down with it when the group is killed
  const wrapped = sandboxed(ctx.sandbox, argv, { cwd, env: ctx.env })
  const since = bootTicks() // every process of the step starts at or after it
  let child: ReturnType<typeof spawnStep>
  try {
    child = spawnStep({ argv: wrapped.argv, cwd, env: wrapped.env, tag })
  } catch (error) {
    await wrapped.release?.()
    throw error
  }
  const pgid = child.pid
  track(tag, pgid, since)
  ctx.onProcess?.({ pgid })
  const window = new OutputWindow()
  let exited = false
  const onAbort = () => {
    if (exited) return
    signalStep(tag, pgid, "SIGTERM")
    setTimeout(() => signalStep(tag, pgid, "SIGKILL"), KILL_GRACE_MS).unref()
  }
  ctx.signal.addEventListener("abort", onAbort, { once: true })
  const readers = [child.stdout.getReader(), child.stderr.getReader()]
  const output = Promise.all(readers.map((reader) => pump(reader, window, ctx)))
  let exitCode: number
  let abortedFirst: boolean
  try {
    exitCode = await child.exited
    exited = true
    abortedFirst = ctx.signal.aborted
    if (child.signalCode) exitCode = 128 + signalNumber(child.signalCode)
    if (!abortedFirst) ctx.onExit?.(exitCode)
    // a background child may still be writing: a short grace, not the timeout
    await Promise.race([output, Bun.sleep(PIPE_GRACE_MS)])
  } finally {
    ctx.signal.removeEventListener("abort", onAbort)
    await killStep(tag, pgid)
    // in a shared sandbox, what the step left there (orphans went to its pid 1, not to ccode) ends too
    await wrapped.release?.()
    forget(tag)
  }
  // everything of the step is dead now; what an escape wrote before dying is taken, then reading stops
  await Promise.race([output, Bun.sleep(PIPE_GRACE_MS)])
  for (const reader of readers) reader.cancel().catch(() => undefined)
  const text = window.text()
  if (abortedFirst) {
    const failure = abortFailure(ctx.signal)
    return { text, bytes: window.bytes, error: { code: failure.code, type: failure.type, message: failure.message } }
  }
  // bash exited before any abort: this is the step's real outcome, even if a signal came after
  if (exitCode !== 0) {
    return { text, bytes: window.bytes, settled: true, data: { exit_code: exitCode }, error: { code: "EXIT_CODE", type: "execution", message: `command exited with code ${exitCode}` } }
  }
  return { text, bytes: window.bytes, settled: true, data: { exit_code: 0 } }
}

async function pump(reader: { read(): Promise<{ done: boolean; value?: Uint8Array }> }, window: OutputWindow, ctx: ToolContext): Promise<void> {
  const decoder = new TextDecoder()
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done || !value) break
      const text = decoder.decode(value, { stream: true })
      const before = window.bytes
      window.push(text, value.byteLength)
      // a step printing gigabytes makes garbage faster than the collector looks for it: ask it to
      // look every 8 MB, so memory stays flat (measured in bench/output.bench.ts)
      if (Math.floor(before / GC_EVERY_BYTES) !== Math.floor(window.bytes / GC_EVERY_BYTES)) Bun.gc(true)
      if (text) ctx.log(text)
    }
  } catch {
    // reading was cancelled: the step is over
  }
}

function signalNumber(signal: NodeJS.Signals | number): number {
  return typeof signal === "number" ? signal : (constants.signals[signal] ?? 0)
}

function abortFailure(signal: AbortSignal): ToolFailure {
  const reason = signal.reason
  if (reason instanceof ToolFailure) return reason
  return new ToolFailure("CANCELLED", "execution", "the command was cancelled")
}
