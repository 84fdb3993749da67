// What a scripted step sees when it is due: its `if:` decided, and `${{ }}` substituted into its
// arguments, env and working directory — before the policy decides the call, so the decision is on
// exactly what runs (an input or output value that reads as shell syntax is analysed as such).
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { evaluate, ExprError, parseExpression, truthy, type Scope, type Value } from "../task/expr.ts"
import { substitute, substituteDeep } from "../task/template.ts"
import { isInside, realpathLoose } from "../tools/paths.ts"
import type { ToolResult } from "../tools/types.ts"
import type { RunContext } from "./context.ts"
import { itemOf, type ItemState, type PlanItem } from "./plan.ts"
import type { StepConfig } from "./state.ts"
import { MAX_OUTPUT_BYTES, OutputFileError, outputsOfData, parseOutputFile } from "./step-output.ts"

/** What `steps.ID.outcome` reads for each plan state. */
const OUTCOME: Record<ItemState, string> = {
  done: "success", failed: "failure", skipped: "skipped", pending: "pending", ready: "pending", active: "running", blocked: "blocked",
}

export function scopeOf(ctx: RunContext): Scope {
  return {
    failed: ctx.state.plan.items.some(hasFailed),
    ref(path: string[]): Value {
      const [root, name, field, key] = path
      if (root === "inputs") return ctx.inputs?.[name!] ?? null
      const item = itemOf(ctx.state.plan, name!)
      if (!item) return null
      if (field === "outputs") return ctx.state.outputs?.[name!]?.[key!] ?? null
      return OUTCOME[item.state]
    },
  }
}

// a failure the run does not shrug off: continue_on_error steps do not make failure() true
function hasFailed(item: PlanItem): boolean {
  return (item.state === "failed" && !item.continueOnError) || (item.state === "blocked" && !item.waiting)
}

/**
 * A step's arguments as `--dry-run` decides them: inputs are known; a later step's output or state is
 * not, so it reads as a placeholder word (`__steps.build.outputs.v__`) that keeps the command parsable.
 */
export function plannedArgs(step: StepConfig, inputs: Record<string, string>): Record<string, unknown> {
  const scope: Scope = { failed: false, ref: (path) => (path[0] === "inputs" ? inputs[path[1]!] ?? null : `__${path.join(".")}__`) }
  const args = substituteDeep(step.args, scope)
  if (step.workingDirectory !== undefined) args.cwd = substitute(step.workingDirectory, scope)
  return args
}

/** Whether a due step runs: its `if:` (an `if:` without success()/failure()/always() means `success() && ...`). */
export function conditionHolds(step: StepConfig, scope: Scope): boolean {
  if (step.if === undefined) return true
  const bare = /^\s*\$\{\{([\s\S]*)\}\}\s*$/.exec(step.if)?.[1] ?? step.if
  const expr = parseExpression(bare) // checked at load: cannot throw here
  const statusGiven = /\b(success|failure|always)\s*\(/.test(bare)
  if (!statusGiven && scope.failed) return false
  return truthy(evaluate(expr, scope))
}

export interface DueCall {
  args: Record<string, unknown>
  env: Record<string, string>
  /** the file the step may write outputs to */
  outputFile: string
}

/** A refusal of the step before anything of it runs (a working directory outside the workspace). */
export class StepRefused extends Error {}

/** The step's call as it will be decided and run. */
export function dueCall(ctx: RunContext, id: string, step: StepConfig, attempt: number): DueCall {
  const scope = scopeOf(ctx)
  const args = substituteDeep(step.args, scope)
  const env = step.env ? Object.fromEntries(Object.entries(step.env).map(([k, v]) => [k, substitute(v, scope)])) : {}
  if (step.workingDirectory !== undefined) args.cwd = workingDirectory(ctx, substitute(step.workingDirectory, scope))
  const dir = ctx.outputDir ?? join(tmpdir(), `ccode-outputs-${ctx.runId}`)
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  const outputFile = join(dir, `output-${id.replace(/[^A-Za-z0-9_.-]/g, "_")}-${attempt}`)
  writeFileSync(outputFile, "", { mode: 0o600 })
  return { args, env: { ...env, CCODE_OUTPUT: outputFile }, outputFile }
}

// Fail closed: resolved through every symlink, and refused unless it is a folder inside the workspace.
function workingDirectory(ctx: RunContext, dir: string): string {
  const real = realpathLoose(resolve(ctx.cwd, dir))
  if (dir.startsWith("/") || !isInside(ctx.workspace, real)) {
    throw new StepRefused(`working_directory ${dir} resolves to ${real}, outside the workspace ${ctx.workspace}; refused`)
  }
  let isDir = false
  try {
    isDir = statSync(real).isDirectory()
  } catch {
    isDir = false
  }
  if (!isDir) throw new StepRefused(`working_directory ${dir} is not a folder (resolved to ${real})`)
  return real
}

/** The outputs a finished call hands on (`structured`: a plugin's or MCP tool's data counts too), redacted; an unreadable or oversized file is the step's failure. */
export function takeOutputs(ctx: RunContext, outputFile: string, result: ToolResult, structured: boolean): { outputs: Record<string, string> } | { error: string } {
  try {
    const size = statSync(outputFile).size
    if (size > MAX_OUTPUT_BYTES) return { error: `$CCODE_OUTPUT is ${size} bytes; at most ${MAX_OUTPUT_BYTES} are taken (write large results to a file and pass its path)` }
    const written = parseOutputFile(readFileSync(outputFile, "utf8"))
    return { outputs: ctx.redactor.value({ ...(structured ? outputsOfData(result.data) : {}), ...written }) }
  } catch (error) {
    if (error instanceof OutputFileError) return { error: error.message }
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { outputs: ctx.redactor.value(structured ? outputsOfData(result.data) : {}) }
    return { error: `$CCODE_OUTPUT could not be read: ${(error as Error).message}` }
  } finally {
    // what the step wrote is unredacted: it lives only until it is taken
    rmSync(outputFile, { force: true })
  }
}

export { ExprError }
