// Load-time checks of a plan's expressions (`if:` and `${{ }}` in step fields): each parses, names a
// declared input or an earlier step, and uses a known step field. Pure. Problems go to `fail` with
// the YAML path of the field, so they are exit 2 with file:line:col before anything runs.
import { ExprError, parseExpression, walk, type Expr } from "./expr.ts"
import { stringsIn, templatesIn } from "./template.ts"

/** What an expression may read of a step. */
export const STEP_FIELDS = ["outputs", "outcome", "state"] as const

export interface CheckedStep {
  id: string
  index: number
  /** `run:` steps keep their command under this YAML key */
  fromRun: boolean
  args: Record<string, unknown>
  if?: string
  env?: Record<string, string>
  workingDirectory?: string
}

export interface StepExpressions {
  /** steps whose outputs or state this step's fields read (they must finish first) */
  reads: string[]
}

type Fail = (path: PropertyKey[], problem: string) => never

export function checkExpressions(steps: CheckedStep[], inputs: Set<string>, fail: Fail): Map<string, StepExpressions> {
  const order = new Map(steps.map((s) => [s.id, s.index]))
  const result = new Map<string, StepExpressions>()
  for (const step of steps) {
    const reads = new Set<string>()
    const check = (expr: Expr, path: PropertyKey[], where: string) => {
      walk(expr, (node) => {
        if (node.kind !== "ref") return
        const problem = refProblem(node.path, step, inputs, order)
        if (problem) fail(path, `step "${step.id}" ${where}: ${problem}`)
        if (node.path[0] === "steps") reads.add(node.path[1]!)
      })
    }
    const parse = (text: string, path: PropertyKey[], where: string, whole: boolean): Expr[] => {
      try {
        return whole ? [parseExpression(text)] : templatesIn(text).map((t) => t.expr)
      } catch (error) {
        if (!(error instanceof ExprError)) throw error
        return fail(path, `step "${step.id}" ${where}: ${error.message} (at character ${error.offset + 1} of ${JSON.stringify(clip(text))})`)
      }
    }
    if (step.if !== undefined) {
      // `if: ${{ x }}` is accepted too, as in GitHub Actions
      const bare = /^\s*\$\{\{([\s\S]*)\}\}\s*$/.exec(step.if)?.[1] ?? step.if
      for (const expr of parse(bare, ["steps", step.index, "if"], "if", true)) {
        check(expr, ["steps", step.index, "if"], "if")
      }
    }
    const fields: { text: string; path: PropertyKey[] }[] = [
      ...stringsIn(step.args).map(({ text, path }) => ({
        text, path: step.fromRun && path[0] === "command" ? ["steps", step.index, "run"] : ["steps", step.index, "with", ...path],
      })),
      ...stringsIn(step.env ?? {}).map(({ text, path }) => ({ text, path: ["steps", step.index, "env", ...path] })),
      ...(step.workingDirectory ? [{ text: step.workingDirectory, path: ["steps", step.index, "working_directory"] }] : []),
    ]
    for (const field of fields) for (const expr of parse(field.text, field.path, "`${{ }}`", false)) check(expr, field.path, "`${{ }}`")
    result.set(step.id, { reads: [...reads] })
  }
  return result
}

function refProblem(path: string[], step: CheckedStep, inputs: Set<string>, order: Map<string, number>): string | undefined {
  const [root, name, field, key] = path
  if (root === "inputs") {
    if (path.length !== 2) return `"${path.join(".")}": write inputs.NAME`
    return inputs.has(name!) ? undefined : `unknown input "${name}" (declare it under inputs:)`
  }
  if (root === "steps") {
    if (name === undefined || field === undefined) return `"${path.join(".")}": write steps.ID.outputs.KEY or steps.ID.outcome`
    const at = order.get(name)
    if (at === undefined) return `unknown step "${name}"`
    if (at >= step.index) return `steps.${name} is not an earlier step (a step reads only the steps above it)`
    if (!(STEP_FIELDS as readonly string[]).includes(field)) return `steps.${name}.${field}: a step has ${STEP_FIELDS.join(", ")}`
    if (field === "outputs" ? path.length !== 4 || key === undefined : path.length !== 3) {
      return `"${path.join(".")}": write steps.${name}.outputs.KEY or steps.${name}.${field === "outputs" ? "outcome" : field}`
    }
    return undefined
  }
  return `unknown name "${root}" (expressions read inputs.NAME, steps.ID.outputs.KEY, steps.ID.outcome, success(), failure(), always())`
}

function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}...` : text
}

/** An agent's goal and system prompt may read inputs (nothing else exists before the agent runs). */
export function checkInputTemplates(text: string, inputs: Set<string>, path: PropertyKey[], fail: Fail): void {
  let found
  try {
    found = templatesIn(text)
  } catch (error) {
    if (!(error instanceof ExprError)) throw error
    return fail(path, `${error.message} (at character ${error.offset + 1} of ${JSON.stringify(clip(text))})`)
  }
  for (const t of found) {
    walk(t.expr, (node) => {
      if (node.kind === "call") fail(path, `${node.name}() means nothing here: an agent's goal reads only inputs.NAME`)
      if (node.kind !== "ref") return
      if (node.path[0] !== "inputs" || node.path.length !== 2) fail(path, `"${node.path.join(".")}": an agent's goal reads only inputs.NAME`)
      if (!inputs.has(node.path[1]!)) fail(path, `unknown input "${node.path[1]}" (declare it under inputs:)`)
    })
  }
}
