// The system prompt and the tool list the model sees each turn. Pure: everything comes in as values.
import { z } from "zod"
import type { Tool } from "../tools/types.ts"
import type { ToolSpec } from "./types.ts"

export interface PromptInput {
  workdir: string
  /** the task's own `agent.system`, added after ccode's rules */
  system?: string
  /** tools an open circuit breaker disabled right now, and why */
  disabled: { tool: string; reason: string }[]
}

export function systemPrompt(input: PromptInput): string {
  const lines = [
    `You are a coding agent run by ccode in the workspace ${input.workdir}. Reach the user's goal by calling the tools you are given.`,
    "- Every tool call is checked against a policy before it runs. A result that starts with `refused:` did not run: choose another way, ask_user, or finish with success=false.",
    "- Read before you edit, and check your work (for example by running the tests).",
    "- When the goal is reached, call finish with success=true and a short summary; when it cannot be reached, finish with success=false and say why.",
  ]
  if (input.disabled.length) {
    lines.push("", "Tools disabled right now (do not call them until they recover):")
    for (const d of input.disabled) lines.push(`- ${d.tool}: ${d.reason}`)
  }
  if (input.system?.trim()) lines.push("", "Instructions from the task:", input.system.trim())
  return lines.join("\n")
}

const schemaCache = new WeakMap<Tool, Record<string, unknown>>()

/** The model's view of a tool: name, description and the JSON Schema of its zod arguments. */
export function toolSpec(tool: Tool): ToolSpec {
  let schema = schemaCache.get(tool)
  if (!schema) {
    const { $schema: _drop, ...rest } = z.toJSONSchema(tool.args, { io: "input", unrepresentable: "any" }) as Record<string, unknown>
    schema = rest
    schemaCache.set(tool, schema)
  }
  return { name: tool.name, description: tool.description, schema }
}
