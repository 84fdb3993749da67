// Models behind the Vercel AI SDK (OpenAI chat completions, Anthropic messages, any OpenAI-compatible
// server). Loaded only when an agent task runs. Tools have no `execute`: the SDK returns the model's
// calls and ccode runs them itself; the SDK never retries (ccode retries, classified).
import type { LanguageModel, ModelMessage, ToolSet } from "ai"
import { completeResults } from "./conversation.ts"
import type { AgentSetup } from "./setup.ts"
import type { Message, ModelTurn, Provider, ToolSpec } from "./types.ts"

export async function sdkProvider(setup: AgentSetup, apiKey: string | undefined): Promise<Provider> {
  // the SDK's console warnings would land in the middle of ccode's progress and --json runs
  ;(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false
  const ai = await import("ai")
  const model = await languageModel(setup, apiKey)
  let tools: { specs: ToolSpec[]; set: ToolSet } | undefined
  return {
    name: setup.provider,
    model: setup.model,
    async turn(request) {
      // the tool list rarely changes between turns: build the SDK's view of it once
      if (!tools || tools.specs !== request.tools) {
        const set: ToolSet = {}
        for (const spec of request.tools) set[spec.name] = ai.tool({ description: spec.description, inputSchema: ai.jsonSchema(spec.schema) })
        tools = { specs: request.tools, set }
      }
      const options = {
        model,
        system: request.system,
        messages: toModelMessages(request.messages, setup.provider === "anthropic"),
        tools: tools.set,
        maxRetries: 0,
        abortSignal: request.signal,
        ...(setup.temperature !== undefined ? { temperature: setup.temperature } : {}),
      }
      if (!setup.stream) {
        const result = await ai.generateText(options)
        return answer(result.text, result.toolCalls, result.usage)
      }
      const result = ai.streamText({ ...options, onError: () => {} })
      for await (const part of result.fullStream) {
        if (part.type === "error") throw part.error
      }
      return answer(await result.text, await result.toolCalls, await result.usage)
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
      return createAnthropic({ apiKey, baseURL }).messages(setup.model)
    }
    default: {
      const { createOpenAICompatible } = await import("@ai-sdk/openai-compatible")
      return createOpenAICompatible({ name: "openai-compatible", baseURL: baseURL!, apiKey, includeUsage: true }).chatModel(setup.model)
    }
  }
}

function answer(
  text: string,
  calls: readonly { toolCallId: string; toolName: string; input: unknown }[],
  usage: { inputTokens: number | undefined; outputTokens: number | undefined },
): ModelTurn {
  return {
    text,
    calls: calls.map((c) => ({ id: c.toolCallId, tool: c.toolName, args: c.input })),
    usage: { input: usage.inputTokens ?? 0, output: usage.outputTokens ?? 0 },
  }
}

/**
 * The conversation in the SDK's message shape; consecutive tool results become one tool message.
 * Failed results are marked as errors only where the protocol has a flag for it (Anthropic's
 * is_error); elsewhere the SDK would wrap them in JSON, and our text already says "error"/"refused".
 */
export function toModelMessages(messages: Message[], errorFlag = false): ModelMessage[] {
  const out: ModelMessage[] = []
  for (const m of completeResults(messages)) {
    if (m.role === "user") out.push({ role: "user", content: m.text })
    else if (m.role === "assistant") {
      const content: Exclude<Extract<ModelMessage, { role: "assistant" }>["content"], string> = []
      if (m.text) content.push({ type: "text", text: m.text })
      for (const c of m.calls) content.push({ type: "tool-call", toolCallId: c.id, toolName: c.tool, input: c.args ?? {} })
      out.push({ role: "assistant", content })
    } else {
      const part = {
        type: "tool-result" as const,
        toolCallId: m.id,
        toolName: m.tool,
        output: m.error && errorFlag ? { type: "error-text" as const, value: m.text } : { type: "text" as const, value: m.text },
      }
      const last = out[out.length - 1]
      if (last?.role === "tool") last.content.push(part)
      else out.push({ role: "tool", content: [part] })
    }
  }
  return out
}
