// The task.yaml format: the zod schema every task file is checked against. Unknown keys are errors. Pure.
import { z } from "zod"
import { McpServer, PolicyFile } from "../policy/schema.ts"
import { Duration } from "../base/duration.ts"

const Scalar = z.union([z.string(), z.number(), z.boolean()]).transform(String)
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/
export const INPUT_NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/

export const Input = z.strictObject({
  default: Scalar.optional(),
  description: z.string().optional(),
  required: z.boolean().optional().describe("the run refuses to start without a value (--var or CCODE_VAR_name)"),
})
export type Input = z.infer<typeof Input>

export const STEP_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/

export const Step = z
  .strictObject({
    id: z.string().regex(STEP_ID, "step ids use letters, digits, '_', '.', '-'").optional(),
    name: z.string().optional().describe("a title shown in progress and reports"),
    run: z.string().min(1).optional().describe("shorthand for tool: shell, with: {command: ...}"),
    tool: z.string().min(1).optional(),
    with: z.record(z.string(), z.unknown()).optional().describe("the tool's arguments"),
    needs: z.array(z.string()).optional(),
    retries: z.number().int().nonnegative().optional(),
    timeout: Duration.optional(),
    breakpoint: z.boolean().optional().describe("always confirm before this step"),
    preview: z.boolean().optional().describe("run in the OS sandbox against a copy of the workspace, show the diff, apply it only when approved"),
    continue_on_error: z.boolean().optional(),
    if: z.union([z.string().min(1), z.boolean()]).transform(String).optional().describe("run the step only when this expression is true (docs/task.md)"),
    env: z.record(z.string().regex(ENV_NAME, "env names use letters, digits and '_'"), Scalar).optional().describe("merged over the task's env for this step"),
    working_directory: z.string().min(1).optional().describe("where the step runs, relative to the task's workdir; inside the workspace"),
  })
  .refine((s) => Boolean(s.run) !== Boolean(s.tool), { message: "a step needs exactly one of `run` or `tool`" })
export type Step = z.infer<typeof Step>

export const Agent = z.strictObject({
  provider: z.enum(["openai", "anthropic", "openai-compatible", "replay"]),
  model: z.string().optional(),
  base_url: z.string().optional(),
  api_key_env: z.string().optional(),
  goal: z.string().optional(),
  system: z.string().optional(),
  tools: z.array(z.string()).optional(),
  max_turns: z.number().int().positive().optional(),
  temperature: z.number().min(0).max(2).optional(),
  stream: z.boolean().optional().describe("stream the model's answers (default false: one response per turn)"),
  script: z.string().optional().describe("replay provider: the recorded turns file, relative to the task"),
})
export type Agent = z.infer<typeof Agent>

export const TaskFile = z
  .strictObject({
    $schema: z.string().optional(),
    version: z.literal(1).optional(),
    name: z.string().min(1).optional(),
    workdir: z.string().optional(),
    env: z.record(z.string(), Scalar).optional(),
    inputs: z.record(z.string().regex(INPUT_NAME, "input names use letters, digits, '_', '-'"), Input).optional().describe("values given with --var name=value or CCODE_VAR_name"),
    policy: z.union([PolicyFile, z.string(), z.array(z.string())]).optional(),
    plugins: z.array(z.string()).optional(),
    mcp: z.strictObject({ servers: z.record(z.string(), McpServer).optional() }).optional(),
    steps: z.array(Step).min(1).optional(),
    agent: Agent.optional(),
  })
  .refine((t) => Boolean(t.steps) !== Boolean(t.agent), { message: "a task needs exactly one of `steps` or `agent`" })
export type TaskFile = z.infer<typeof TaskFile>
