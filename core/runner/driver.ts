// What drives a run: the scripted plan ("steps"), a model ("agent") or an MCP client ("mcp"). The
// runner starts, resumes, checkpoints and finishes every run the same way and asks its driver only
// what differs: what to settle after a crash, how to go on, and how the run stands at the end.
import type { RunStatus } from "../store/runs.ts"
import type { LoadedTask } from "../task/load.ts"
import type { ToolRegistry } from "../tools/registry.ts"
import type { Tool } from "../tools/types.ts"
import type { RunContext } from "./context.ts"

/** The name stored in runs.driver and shown in run.started / run.resumed. */
export type DriverName = "steps" | "agent" | "mcp"

export interface Driver {
  name: DriverName
  /** built-in tools the driver offers besides the usual ones (the agent's ask_user, update_plan, ...) */
  tools: Tool[]
  /**
   * Which guards bound its calls: "agent" adds the tool-call and depth limits, loop and stall
   * detection (a model, or an MCP client's model, can go round in circles); "steps" is bounded by its plan.
   */
  guards: "steps" | "agent"
  /** a step's own `timeout:` in the task file counts (it may go beyond the tool's default) */
  stepTimeouts: boolean
  /** checks the task's own section for this driver before anything is stored (throws ConfigError) */
  check?(task: LoadedTask, registry: ToolRegistry, env: Record<string, string>, inputs: Record<string, string>): void
  /** on resume: settle calls found in flight and requests a person answered meanwhile */
  reconcile(ctx: RunContext): Promise<void>
  /** resumed with changed approval settings (--yes, --auto-approve, --policy): decide waiting calls again */
  redecide?(ctx: RunContext): Promise<void>
  /** go on until done, waiting for a person, or stopped (ctx.stop) */
  drive(ctx: RunContext): Promise<void>
  /** how the run stands when a segment ends; `steps`: finished steps (scripted) or turns (agent) */
  status(ctx: RunContext): { status: RunStatus; message: string; steps: number }
}
