// What a scripted step sees when it is due: its `if:` decided, and `${{ }}` substituted into its
// arguments, env and working directory — before the policy decides the call, so the decision is on
// exactly what runs (an input or output value that reads as shell syntax is analysed as such).
import { randomBytes } from "node:crypto"
import { closeSync, constants, fstatSync, mkdirSync, openSync, readSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { evaluate, ExprError, parseExpression, truthy, type Scope, type Value } from "../task/expr.ts"
import { substitute, substituteDeep } from "../task/template.ts"
import { isInside, realpathExisting } from "../base/paths.ts"
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
      // own keys only: `outputs.constructor` is not Object's constructor
      if (root === "inputs") return own(ctx.inputs, name!)
      const item = itemOf(ctx.state.plan, name!)
      if (!item) return null
      if (field === "outputs") return own(own(ctx.state.outputs, name!), key!)
      return OUTCOME[item.state]
    },
  }
}

function own<T>(record: Record<string, T> | undefined | null, key: string): T | null {
  return record && Object.hasOwn(record, key) ? record[key]! : null
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
  const outputFile = freshOutputFile(dir, `output-${id.replace(/[^A-Za-z0-9_.-]/g, "_")}-${attempt}`)
  return { args, env: { ...env, CCODE_OUTPUT: outputFile }, outputFile }
}

/**
 * The step's output file, made by ccode outside the sandbox in a folder every sandboxed step can write:
 * an unguessable name created new (O_EXCL) without following a link, so an earlier step cannot plant
 * `output-<next step>-1 -> /any/host/file` for ccode to create or truncate.
 */
function freshOutputFile(dir: string, stem: string): string {
  for (let i = 0; i < 4; i++) {
    const path = join(dir, `${stem}-${randomBytes(6).toString("hex")}`)
    try {
      closeSync(openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600))
      return path
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (code !== "EEXIST" && code !== "ELOOP") throw error
    }
  }
  throw new StepRefused(`$CCODE_OUTPUT could not be created new in ${dir} (every name tried was taken); refused`)
}

// Fail closed: resolved through every symlink, and refused unless it is a folder inside the workspace.
function workingDirectory(ctx: RunContext, dir: string): string {
  const real = realpathExisting(resolve(ctx.cwd, dir))
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

/** The outputs a finished call hands on (`structured`: a plugin's or MCP tool's data counts too), redacted;
 *  an unreadable, oversized or swapped file is the step's failure. */
export function takeOutputs(ctx: RunContext, outputFile: string, result: ToolResult, structured: boolean): { outputs: Record<string, string> } | { error: string } {
  const data = structured ? outputsOfData(result.data) : {}
  try {
    const text = readOutputFile(outputFile)
    return { outputs: ctx.redactor.value({ ...data, ...(text === undefined ? {} : parseOutputFile(text)) }) }
  } catch (error) {
    return { error: error instanceof OutputFileError ? error.message : `$CCODE_OUTPUT could not be read: ${(error as Error).message}` }
  } finally {
    // what the step wrote is unredacted: it lives only until it is taken
    rmSync(outputFile, { force: true })
  }
}

/**
 * The file as the step left it, read without following a link: a sandboxed step that swaps it for a
 * symlink (to ~/.ssh/id_rsa, /dev/zero) or a FIFO must not make ccode, outside the sandbox, read for it.
 */
function readOutputFile(path: string): string | undefined {
  let fd: number
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === "ENOENT") return undefined
    if (code === "ELOOP") throw new OutputFileError("$CCODE_OUTPUT was replaced by a symlink; refused (write to the file, do not replace it)")
    throw error
  }
  try {
    const stat = fstatSync(fd)
    if (!stat.isFile()) throw new OutputFileError("$CCODE_OUTPUT is no longer a regular file; refused")
    if (stat.nlink > 1) throw new OutputFileError("$CCODE_OUTPUT has another hard link; refused")
    if (stat.size > MAX_OUTPUT_BYTES) throw new OutputFileError(`$CCODE_OUTPUT is ${stat.size} bytes; at most ${MAX_OUTPUT_BYTES} are taken (write large results to a file and hand on its path)`)
    const buffer = Buffer.alloc(stat.size)
    const read = readSync(fd, buffer, 0, stat.size, 0)
    return buffer.subarray(0, read).toString("utf8")
  } finally {
    closeSync(fd)
  }
}

export { ExprError }
