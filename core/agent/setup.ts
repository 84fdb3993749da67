// The `agent:` section of a task, checked before anything runs: provider, model, key variable,
// tools, replay script. Every problem is a ConfigError (exit 2) with file:line:col.
import { substitute } from "../task/template.ts"
import { resolve } from "node:path"
import type { LoadedTask } from "../task/load.ts"
import { ConfigError, positionOf } from "../base/yaml.ts"
import type { ToolRegistry } from "../tools/registry.ts"
import { loadReplayScript } from "./replay.ts"
import type { ReplayTurn } from "./types.ts"

export type ProviderName = "openai" | "anthropic" | "openai-compatible" | "replay"

export interface AgentSetup {
  provider: ProviderName
  model: string
  baseUrl?: string
  /** the variable holding the API key (named in errors; its value is read when the run starts) */
  apiKeyEnv?: string
  goal: string
  system?: string
  /** tools offered to the model, in order; `finish` is always among them */
  tools: string[]
  maxTurns?: number
  temperature?: number
  stream: boolean
  /** replay: the recorded turns */
  script?: ReplayTurn[]
}

const DEFAULT_KEY_ENV: Partial<Record<ProviderName, string>> = { openai: "OPENAI_API_KEY", anthropic: "ANTHROPIC_API_KEY" }

/** `inputs`: the task's input values, for `${{ inputs.NAME }}` in the goal and system prompt (docs/task.md). */
export function prepareAgent(task: LoadedTask, registry: ToolRegistry, env: Record<string, string | undefined>, inputs: Record<string, string> = {}): AgentSetup {
  const spec = task.spec.agent!
  const fail = (path: PropertyKey[], problem: string): never => {
    const at = positionOf(task.source, ["agent", ...path])
    throw new ConfigError(task.file, at.line, at.col, problem)
  }
  const replay = spec.provider === "replay"
  if (!replay && !spec.model) fail([], `agent.model is required for the ${spec.provider} provider`)
  if (!replay && !spec.goal?.trim()) fail([], "agent.goal is required: say what the agent should achieve")
  if (spec.provider === "openai-compatible" && !spec.base_url) {
    fail(["provider"], "the openai-compatible provider needs agent.base_url (for Ollama: http://localhost:11434/v1)")
  }
  if (spec.base_url && !/^https?:\/\//.test(spec.base_url)) fail(["base_url"], `agent.base_url must be an http(s) URL, got "${spec.base_url}"`)
  if (replay && !spec.script) fail(["provider"], "the replay provider needs agent.script: a file of recorded turns (`ccode runs export RUN --replay`)")

  const apiKeyEnv = spec.api_key_env ?? DEFAULT_KEY_ENV[spec.provider]
  if (!replay && apiKeyEnv && !env[apiKeyEnv]) {
    const optional = spec.provider === "openai-compatible"
    if (!optional || spec.api_key_env) {
      fail([spec.api_key_env ? "api_key_env" : "provider"], `${apiKeyEnv} is not set: export ${apiKeyEnv}=<your API key> (agent.api_key_env names the variable)`)
    }
  }

  const known = [...registry.keys()]
  const wanted = spec.tools ?? known
  spec.tools?.forEach((name, i) => {
    if (!registry.has(name)) fail(["tools", i], `unknown tool "${name}"; known tools: ${known.join(", ")}`)
  })
  const tools = [...new Set([...wanted, "finish"])].filter((name) => registry.has(name))

  const script = replay ? loadReplayScript(resolve(task.dir, spec.script!)) : undefined
  script?.forEach((turn, t) =>
    turn.calls?.forEach((call) => {
      if (!registry.has(call.tool)) throw new ConfigError(resolve(task.dir, spec.script!), 1, 1, `turn ${t + 1} calls unknown tool "${call.tool}"`)
    }),
  )
  return {
    provider: spec.provider,
    model: spec.model ?? (replay ? "replay" : ""),
    baseUrl: spec.base_url,
    apiKeyEnv,
    goal: withInputs(spec.goal?.trim(), inputs) || `replay of ${spec.script}`,
    system: withInputs(spec.system, inputs),
    tools,
    maxTurns: spec.max_turns,
    temperature: spec.temperature,
    stream: spec.stream ?? false,
    script,
  }
}

function withInputs(text: string | undefined, inputs: Record<string, string>): string | undefined {
  return text === undefined ? undefined : substitute(text, { failed: false, ref: (path) => inputs[path[1]!] ?? null })
}
