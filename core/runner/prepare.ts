// Everything a run needs before it starts, with every problem raised as a ConfigError (exit 2)
// before anything is stored: the policy, the tools, each step's tool and arguments, the redactor.
import { realpathSync } from "node:fs"
import { homedir } from "node:os"
import { addExtraTools, type Extras } from "../plugins/extras.ts"
import { createRedactor, type Redactor } from "../redact/index.ts"
import { isTrustedFile } from "../store/trust.ts"
import { describeZod } from "../tools/envelope.ts"
import { createRegistry, type ToolRegistry } from "../tools/registry.ts"
import { AGENT_TOOLS } from "../tools/builtin/agent.ts"
import { prepareAgent } from "../agent/setup.ts"
import type { LoadedTask } from "../task/load.ts"
import { ConfigError, positionOf } from "../task/yaml.ts"
import type { Governor, RunOptions } from "./context.ts"
import { createGovernor } from "./governor.ts"
import type { RunEnv } from "./lifecycle.ts"
import { loadRunPolicy } from "./policy.ts"
import { Recorder } from "./recorder.ts"
import type { StepConfig } from "./state.ts"

export interface PreparedStep {
  id: string
  title: string
  needs: string[]
  continueOnError: boolean
  config: StepConfig
}

export interface Prepared {
  /** the workspace root: file tools stay inside it */
  workspace: string
  /** the task's workdir: where tools run */
  cwd: string
  toolEnv: Record<string, string>
  registry: ToolRegistry
  governor: Governor
  redactor: Redactor
  policyHash: string
  /** changes when the task file's plan changes */
  stepsHash: string
  steps: PreparedStep[]
  /** plugins and MCP servers: hooks, what was left out, and close() for the servers */
  extras: Extras
  recorder(runId: string): Recorder
}

/**
 * `resume`: the plan was checked when the run started and its hash proves it unchanged, so its
 * arguments are not validated again (each call still is, when it runs) and its titles, which
 * come from the stored plan rows, are not redacted again — a 10,000-step plan resumes at once.
 */
export async function prepareRun(env: RunEnv, task: LoadedTask, options: RunOptions, resume = false): Promise<Prepared> {
  const cwd = realpathSync(task.workdir)
  const toolEnv = toolEnvironment(env.env, task.spec.env ?? {})
  const { policy, workspace } = await loadRunPolicy(env, task, options, cwd)
  const registry = createRegistry(task.spec.agent ? AGENT_TOOLS : [])
  const extras = await addExtraTools({
    registry, workspace, cwd, env: env.env, home: homedir(), task, servers: policy.mcp.servers,
    isTrusted: (file, hash) => options.trust || isTrustedFile(env.store, file, hash),
  })
  try {
    return finishPrepare(env, task, { cwd, toolEnv, policy, workspace, registry, extras }, resume)
  } catch (error) {
    await extras.close()
    throw error
  }
}

function finishPrepare(
  env: RunEnv, task: LoadedTask,
  { cwd, toolEnv, policy, workspace, registry, extras }: Pick<Prepared, "cwd" | "toolEnv" | "workspace" | "registry" | "extras"> & { policy: Prepared["governor"]["policy"] },
  resume: boolean,
): Prepared {
  const steps = task.steps.map((step): PreparedStep => {
    const registered = registry.get(step.tool)
    if (!registered) {
      const at = positionOf(task.source, ["steps", step.index, step.tool === "shell" ? "run" : "tool"])
      const why = extras.problems.length ? `\n${extras.problems.map((p) => `  ${p}`).join("\n")}` : ""
      throw new ConfigError(task.file, at.line, at.col, `step "${step.id}" uses unknown tool "${step.tool}"; known tools: ${[...registry.keys()].join(", ")}${why}`)
    }
    const parsed = resume ? undefined : registered.tool.args.safeParse(step.args)
    if (parsed && !parsed.success) {
      const at = positionOf(task.source, ["steps", step.index, step.tool === "shell" && "run" in (task.spec.steps?.[step.index] ?? {}) ? "run" : "with"])
      throw new ConfigError(task.file, at.line, at.col, `step "${step.id}": invalid arguments for ${step.tool}: ${describeZod(parsed.error)}`)
    }
    return {
      id: step.id, title: step.title, needs: step.needs, continueOnError: step.continueOnError,
      config: { tool: step.tool, args: step.args, retries: step.retries, timeout: step.timeout, breakpoint: step.breakpoint },
    }
  })
  const redactor = createRedactor({
    enabled: policy.redaction.enabled && env.env.CCODE_REDACT !== "0",
    env: toolEnv,
    envNames: policy.redaction.env,
    patterns: policy.redaction.patterns,
    flags: policy.redaction.flags,
    home: homedir(),
  })
  // the agent section is checked now, so a bad one is exit 2 before anything is stored
  if (task.spec.agent) prepareAgent(task, registry, toolEnv)
  const governor = createGovernor(policy, workspace, toolEnv)
  const policyHash = new Bun.CryptoHasher("sha256").update(JSON.stringify({ ...policy, sources: undefined })).digest("hex").slice(0, 16)
  // titles are shown and stored (plan rows, checkpoints, summaries): never with a secret in them
  if (!resume) for (const step of steps) step.title = redactor.text(step.title)
  return {
    workspace, cwd, toolEnv, registry, governor, redactor, policyHash, steps, extras, stepsHash: stepsHash(steps),
    recorder: (runId) => new Recorder(env.store, runId, redactor, env.reporter),
  }
}

/** A fingerprint of the plan (ids, tools, arguments, needs): resume refuses a task file whose plan changed. */
function stepsHash(steps: PreparedStep[]): string {
  const shape = steps.map((s) => [s.id, s.needs, s.continueOnError, s.config])
  return new Bun.CryptoHasher("sha256").update(JSON.stringify(shape)).digest("hex").slice(0, 32)
}

function toolEnvironment(processEnv: Record<string, string | undefined>, taskEnv: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(processEnv)) if (value !== undefined) out[key] = value
  return { ...out, ...taskEnv }
}
