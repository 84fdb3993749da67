// Everything a run needs before it starts, with every problem raised as a ConfigError (exit 2)
// before anything is stored: the policy, the tools, each step's tool and arguments, the redactor.
import { existsSync, realpathSync } from "node:fs"
import { loadWarnings } from "./load-warnings.ts"
import { homedir } from "node:os"
import { join } from "node:path"
import { addExtraTools, type Extras } from "../plugins/extras.ts"
import { isLoaderVar } from "../shell/scope.ts"
import { createRedactor, looksSecretVariable, type Redactor } from "../redact/index.ts"
import { resolveInputs } from "../task/inputs.ts"
import { readTrust, type TrustCheck } from "../runstore/trust.ts"
import { describeZod } from "../tools/envelope.ts"
import { createRegistry, type ToolRegistry } from "../tools/registry.ts"
import type { Driver } from "./driver.ts"
import { driverFor } from "./drivers.ts"
import type { LoadedTask } from "../task/load.ts"
import { ConfigError, positionOf } from "../base/yaml.ts"
import type { Governor, RunOptions } from "./context.ts"
import { createGovernor } from "./governor.ts"
import type { RunEnv } from "./lifecycle.ts"
import { loadRunPolicy } from "./policy.ts"
import { Recorder } from "./recorder.ts"
import type { StepConfig } from "./state.ts"
import { sandboxStatus, type SandboxStatus } from "../sandbox/session.ts"
import { taskRootLimit } from "../policy/workspace.ts"
import { isInside, realpathOr } from "../base/paths.ts"

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
  /** the task's input values */
  inputs: Record<string, string>
  /** changes when the task file's plan changes */
  stepsHash: string
  steps: PreparedStep[]
  /** found at load: settings that would be capped or ignored (shown before the run, and audited) */
  warnings: string[]
  /** plugins and MCP servers: hooks, what was left out, and close() for the servers */
  extras: Extras
  /** whether shell calls run inside the OS sandbox, and why not */
  sandbox: SandboxStatus
  /** what proposes the calls */
  driver: Driver
  recorder(runId: string): Recorder
}

/**
 * `resume`: the plan was checked when the run started and its hash proves it unchanged, so its
 * arguments are not validated again (each call still is, when it runs) and its titles, which
 * come from the stored plan rows, are not redacted again — a 10,000-step plan resumes at once.
 */
export async function prepareRun(env: RunEnv, task: LoadedTask, options: RunOptions, resume = false, driver = driverFor(task)): Promise<Prepared> {
  const cwd = realpathSync(task.workdir)
  const toolEnv = toolEnvironment(env.env, task.spec.env ?? {})
  const inputs = resolveInputs(task.file, task.spec.inputs ?? {}, options.vars ?? {}, env.env, () => task.source)
  // the trusted files, read once: the loaders below check them synchronously
  const trust = await readTrust(env.store)
  const loaded = await loadRunPolicy(env, task, options, cwd, (root) => trust.in(root))
  const { workspace } = loaded
  const trusted = taskTrusted(trust.in(workspace), task, options)
  checkWorkspace(task, cwd, workspace, realHomes(env.env.HOME), trusted)
  const loaderEnv = checkTaskEnv(task, trusted)
  // limits.max_tool_timeout lets a step's own timeout go beyond the tool's: only a trusted task's
  const policy = trusted ? loaded.policy : { ...loaded.policy, limits: { ...loaded.policy.limits, max_tool_timeout: undefined } }
  // `required` without a working sandbox is exit 2 here, before any plugin loads or any step runs.
  // bwrap is looked up on ccode's own PATH, never the task's `env:` one, which the repository controls
  const sandbox = await sandboxStatus(policy.sandbox, env.env.PATH, workspace)
  const registry = createRegistry(driver.tools)
  const extras = await addExtraTools({
    registry, workspace, cwd, env: env.env, home: homedir(), task, servers: policy.mcp.servers,
    isTrusted: options.trust ? () => true : trust.in(workspace),
    cacheDir: join(env.home, "cache"),
  })
  try {
    const prepared = finishPrepare(env, task, { cwd, toolEnv, policy, workspace, registry, extras, sandbox, loaderEnv, driver, inputs }, resume)
    prepared.warnings = loadWarnings(policy, prepared.steps.map((s) => ({
      id: s.id, tool: s.config.tool, toolTimeout: registry.get(s.config.tool)?.tool.timeout,
      timeout: s.config.timeout ?? (s.config.args.timeout as string | number | undefined),
    })), { scripted: driver.guards === "steps", trusted, explicit: (source) => source.startsWith("flag:") || source.startsWith(task.file) })
    return prepared
  } catch (error) {
    await extras.close()
    throw error
  }
}

function finishPrepare(
  env: RunEnv, task: LoadedTask,
  { cwd, toolEnv, policy, workspace, registry, extras, sandbox, loaderEnv, driver, inputs }: Pick<Prepared, "cwd" | "toolEnv" | "workspace" | "registry" | "extras" | "sandbox" | "driver" | "inputs"> & { policy: Prepared["governor"]["policy"]; loaderEnv: string[] },
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
      config: {
        tool: step.tool, args: step.args, retries: step.retries, timeout: step.timeout, breakpoint: step.breakpoint, ...(step.preview ? { preview: true } : {}),
        ...(step.if !== undefined ? { if: step.if } : {}),
        ...(step.env ? { env: step.env } : {}), ...(step.workingDirectory ? { workingDirectory: step.workingDirectory } : {}),
      },
    }
  })
  const redactor = createRedactor({
    // CCODE_REDACT is already in the policy (the env layer), where a managed `redaction.enabled` can refuse it
    enabled: policy.redaction.enabled,
    env: toolEnv,
    envNames: policy.redaction.env,
    patterns: policy.redaction.patterns,
    flags: policy.redaction.flags,
    home: homedir(),
    // a step's own env and the inputs are secrets too when their names say so
    secrets: secretValues(policy.redaction.env, inputs, ...task.steps.map((s) => s.env ?? {})),
  })
  // the driver's own section (agent:) is checked now, so a bad one is exit 2 before anything is stored
  driver.check?.(task, registry, toolEnv, inputs)
  const governor = createGovernor(policy, workspace, toolEnv, { sandboxed: sandbox.bwrap !== undefined, loaderEnv })
  const policyHash = new Bun.CryptoHasher("sha256").update(JSON.stringify({ ...policy, sources: undefined })).digest("hex").slice(0, 16)
  // titles are shown and stored (plan rows, checkpoints, summaries): never with a secret in them
  if (!resume) for (const step of steps) step.title = redactor.text(step.title)
  return {
    workspace, cwd, toolEnv, registry, governor, redactor, policyHash, steps, extras, sandbox, driver, inputs, stepsHash: stepsHash(steps, task.spec.inputs ? inputs : undefined), warnings: [],
    recorder: (runId) => new Recorder(env.store, runId, redactor, env.reporter),
  }
}

/**
 * A fingerprint of the plan (ids, tools, arguments, needs, and the input values when the task has
 * inputs): resume refuses a task file whose plan changed, and inputs that differ from the run's.
 * Only the hash is stored, never an input's value.
 */
function stepsHash(steps: PreparedStep[], inputs?: Record<string, string>): string {
  const shape: unknown[] = steps.map((s) => [s.id, s.needs, s.continueOnError, s.config])
  if (inputs) shape.push({ inputs: Object.entries(inputs).sort(([a], [b]) => (a < b ? -1 : 1)) })
  return new Bun.CryptoHasher("sha256").update(JSON.stringify(shape)).digest("hex").slice(0, 32)
}

function secretValues(named: string[], ...envs: Record<string, string>[]): string[] {
  const values: string[] = []
  for (const env of envs) for (const [name, value] of Object.entries(env)) if (value && (looksSecretVariable(name, env) || named.includes(name))) values.push(value)
  return values
}

/**
 * A task's env: may set loader/config variables (PATH, BASH_ENV, LD_*, GIT_*, ...) only when the task
 * file is trusted: otherwise the repository picks what `ls` runs. Returns the ones a trusted task sets.
 */
/** The task file is trusted as it is now (by --trust or `ccode trust` of its content, for this workspace). */
function taskTrusted(isTrusted: TrustCheck, task: LoadedTask, options: RunOptions): boolean {
  if (options.trust) return true
  // the hash of the text that was parsed: a file swapped on disk meanwhile cannot lend its trust
  return isTrusted(task.file, task.sha256)
}

/**
 * An untrusted task works only inside its own workspace: the nearest `.ccode/` or git root above the
 * task file, whichever is nearer, else its folder (`taskRootLimit`). Its `workdir:` must stay inside
 * that, and so must the workspace the run would take (the sandbox's writable root), which is never the
 * home folder, `/` or a folder holding the home. Otherwise the repository picks the writable root (/etc,
 * the home folder through a `~/.ccode/` above it) or borrows another project's trusted policy, plugins
 * and servers. Raised before any plugin, server or step runs. `ccode mcp --cwd` has no task file: the
 * person chose its folder.
 */
function checkWorkspace(task: LoadedTask, cwd: string, workspace: string, homes: string[], trusted: boolean): void {
  if (trusted || task.workdirByPerson) return
  const own = taskRootLimit(task.dir)
  const given = task.spec.workdir !== undefined
  // only when refusing: finding a position reads the whole document (a 10,000-step task: ~300 ms, 40 MB)
  const at = () => positionOf(task.source, given ? ["workdir"] : [])
  const fix = `Review the task, then \`ccode trust ${task.file}\` (or --trust for one run)`
  if (given && !isInside(own, cwd)) {
    const { line, col } = at()
    throw new ConfigError(task.file, line, col,
      `workdir ${task.spec.workdir} resolves to ${cwd}, outside the task file's workspace ${own}; an untrusted task runs only inside its own workspace. ` +
      `${fix}, or move the task file into the folder it works on`)
  }
  const home = homes.find((h) => isInside(workspace, h))
  if (home === undefined && isInside(own, workspace)) return
  const marker = existsSync(join(workspace, ".ccode")) ? "the .ccode/ there" : "a .git there that another user owns"
  const what = home === undefined ? `above the task file's workspace ${own} (${marker})` : home === workspace ? "the home folder" : `a folder holding the home folder ${home}`
  const { line, col } = at()
  throw new ConfigError(task.file, line, col,
    `this run's workspace (the folder its steps may write) would be ${workspace}, ${what}; an untrusted task runs only inside its own workspace, never the home folder. ` +
    `Make ${own} a workspace of its own (\`ccode init ${own}\` or \`git init\` there), or ${fix.charAt(0).toLowerCase()}${fix.slice(1)}`)
}

function checkTaskEnv(task: LoadedTask, trusted: boolean): string[] {
  // a step's env: is held to the same rule as the task's
  const sets = [{ path: ["env"], names: Object.keys(task.spec.env ?? {}) }, ...task.steps.map((s) => ({ path: ["steps", s.index, "env"], names: Object.keys(s.env ?? {}) }))]
  const loader = [...new Set(sets.flatMap((s) => s.names.filter(isLoaderVar)))]
  if (!loader.length || trusted) return loader
  const first = sets.find((s) => s.names.some(isLoaderVar))!
  const at = positionOf(task.source, [...first.path, first.names.find(isLoaderVar)!])
  throw new ConfigError(task.file, at.line, at.col,
    `env: ${loader.join(", ")} ${loader.length > 1 ? "are loader/config variables" : "is a loader/config variable"} (they change what every command loads and runs); ` +
    `an untrusted task may not set them. Review the task, then \`ccode trust ${task.file}\` (or --trust for one run)`)
}

function toolEnvironment(processEnv: Record<string, string | undefined>, taskEnv: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(processEnv)) if (value !== undefined) out[key] = value
  return { ...out, ...taskEnv }
}

/** The home folder (ccode's own, and the run's $HOME when it differs), real paths. */
function realHomes(envHome: string | undefined): string[] {
  return [...new Set([homedir(), envHome].filter((h): h is string => !!h && h.startsWith("/")).map((h) => realpathOr(h)))]
}
