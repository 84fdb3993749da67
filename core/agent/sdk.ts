// Models behind the Vercel AI SDK's provider packages (OpenAI chat completions, Anthropic messages,
// any OpenAI-compatible server), loaded only when an agent task runs. ccode talks to the provider's
// language model directly (doGenerate / doStream): the model's tool calls come back as data, ccode
// runs them itself, never retried by the SDK (ccode retries, classified), and the conversation is
// not re-validated by the SDK on every turn (that cost grows with the conversation).
import type { createOpenAI } from "@ai-sdk/openai"
import { completeResults } from "./conversation.ts"
import type { AgentSetup } from "./setup.ts"
import type { Message, ModelTurn, Provider, ToolSpec } from "./types.ts"

type LanguageModel = ReturnType<ReturnType<typeof createOpenAI>["chat"]>
type CallOptions = Parameters<LanguageModel["doGenerate"]>[0]
type Prompt = CallOptions["prompt"]
type Usage = Awaited<ReturnType<LanguageModel["doGenerate"]>>["usage"]
type ToolPart = Extract<Prompt[number], { role: "tool" }>["content"][number]

export async function sdkProvider(setup: AgentSetup, apiKey: string | undefined): Promise<Provider> {
  const model = await languageModel(setup, apiKey)
  let tools: { specs: ToolSpec[]; list: NonNullable<CallOptions["tools"]> } | undefined
  return {
    name: setup.provider,
    model: setup.model,
    async turn(request) {
      // the tool list rarely changes between turns: build the provider's view of it once
      if (tools?.specs !== request.tools) {
        tools = { specs: request.tools, list: request.tools.map((t) => ({ type: "function", name: t.name, description: t.description, inputSchema: t.schema })) }
      }
      const options: CallOptions = {
        prompt: toPrompt(request.system, request.messages, setup.provider === "anthropic"),
        tools: tools.list,
        abortSignal: request.signal,
        ...(setup.temperature !== undefined ? { temperature: setup.temperature } : {}),
      }
      if (!setup.stream) {
        const result = await model.doGenerate(options)
        let text = ""
        const calls: ModelTurn["calls"] = []
        for (const part of result.content) {
          if (part.type === "text") text += part.text
          else if (part.type === "tool-call" && !part.providerExecuted) calls.push({ id: part.toolCallId, tool: part.toolName, args: parseInput(part.input) })
        }
        return { text, calls, usage: tokens(result.usage) }
      }
      const { stream } = await model.doStream(options)
      let text = ""
      let usage: Usage | undefined
      const calls: ModelTurn["calls"] = []
      for await (const part of stream) {
        if (part.type === "text-delta") text += part.delta
        else if (part.type === "tool-call" && !part.providerExecuted) calls.push({ id: part.toolCallId, tool: part.toolName, args: parseInput(part.input) })
        else if (part.type === "finish") usage = part.usage
        else if (part.type === "error") throw part.error
      }
      return { text, calls, usage: usage ? tokens(usage) : { input: 0, output: 0 } }
    },
  }
}

async function languageModel(setup: AgentSetup, apiKey: string | undefined): Promise<LanguageModel> {
  const baseURL = setup.baseUrl
  switch (setup.provider) {
    case "openai": {
      const { createOpenAI } = await import("@ai-sdk/openai")
      return createOpenAI({ apiKey, baseURL }).chat(setup.model)
    }
    case "anthropic": {
      const { createAnthropic } = await import("@ai-sdk/anthropic")
      return createAnthropic({ apiKey, baseURL }).messages(setup.model) as LanguageModel
    }
    default: {
      const { createOpenAICompatible } = await import("@ai-sdk/openai-compatible")
      return createOpenAICompatible({ name: "openai-compatible", baseURL: baseURL!, apiKey, includeUsage: true }).chatModel(setup.model) as LanguageModel
    }
  }
}

/**
 * The conversation as the provider's prompt; consecutive tool results become one tool message.
 * Failed results are marked as errors only where the protocol has a flag for it (Anthropic's
 * is_error); elsewhere the provider would wrap them in JSON, and our text already says "error"/"refused".
 */
export function toPrompt(system: string, messages: Message[], errorFlag = false): Prompt {
  const out: Prompt = [{ role: "system", content: system }]
  for (const m of completeResults(messages)) {
    if (m.role === "user") out.push({ role: "user", content: [{ type: "text", text: m.text }] })
    else if (m.role === "assistant") {
      const content: Extract<Prompt[number], { role: "assistant" }>["content"] = []
      if (m.text) content.push({ type: "text", text: m.text })
      for (const c of m.calls) content.push({ type: "tool-call", toolCallId: c.id, toolName: c.tool, input: c.args ?? {} })
      out.push({ role: "assistant", content })
    } else {
      const part: ToolPart = {
        type: "tool-result",
        toolCallId: m.id,
        toolName: m.tool,
        output: m.error && errorFlag ? { type: "error-text", value: m.text } : { type: "text", value: m.text },
      }
      const last = out[out.length - 1]!
      if (last.role === "tool") last.content.push(part)
      else out.push({ role: "tool", content: [part] })
    }
  }
  return out
}

// Tool input arrives as JSON text; what does not parse is handed on as text, and the call then
// fails ccode's argument check with a message the model can act on.
function parseInput(input: string): unknown {
  if (!input.trim()) return {}
  try {
    return JSON.parse(input)
  } catch {
    return input
  }
}

function tokens(usage: Usage): ModelTurn["usage"] {
  return { input: usage.inputTokens.total ?? 0, output: usage.outputTokens.total ?? 0 }
}
