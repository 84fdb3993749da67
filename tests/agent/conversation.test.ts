// The conversation as data: open calls, unique call ids, one result per call, the SDK's message shape.
import { describe, expect, test } from "bun:test"
import { assistantMessage, completeResults, newAgentState, openCalls, refusalMessage, resultMessage, RESULT_CAP } from "../../core/agent/conversation.ts"
import { toPrompt } from "../../core/agent/sdk.ts"
import { replayTurns } from "../../core/agent/export.ts"
import { errorResult, okResult } from "../../core/tools/envelope.ts"

function stateWithTurn() {
  const state = newAgentState("fix the build")
  const turn = assistantMessage(state, 1, {
    text: "looking",
    calls: [
      { id: "c1", tool: "read_file", args: { path: "a" } },
      { id: "c2", tool: "shell", args: { command: "make" } },
    ],
    usage: { input: 1, output: 1 },
  })
  state.messages.push(turn)
  return { state, turn }
}

describe("conversation", () => {
  test("the calls of the latest turn without a result are open, in the model's order", () => {
    const { state, turn } = stateWithTurn()
    expect(openCalls(state).map((c) => c.key)).toEqual(["t1.1", "t1.2"])
    state.messages.push(resultMessage(turn.calls[0]!, okResult({ text: "content" }, 1)))
    expect(openCalls(state).map((c) => c.id)).toEqual(["c2"])
    state.messages.push(refusalMessage(turn.calls[1]!, "denied by rule no-make"))
    expect(openCalls(state)).toEqual([])
  })

  test("call ids a server repeats across turns are made unique", () => {
    const { state } = stateWithTurn()
    const next = assistantMessage(state, 2, { text: "", calls: [{ id: "c1", tool: "read_file", args: {} }, { id: "", tool: "grep", args: {} }], usage: { input: 0, output: 0 } })
    expect(next.calls.map((c) => c.id)).toEqual(["call_t2_1", "call_t2_2"])
    expect(next.calls.map((c) => c.key)).toEqual(["t2.1", "t2.2"])
  })

  test("results: ok text, errors with their code, refusals say the call did not run, huge outputs are capped", () => {
    const { turn } = stateWithTurn()
    const call = turn.calls[0]!
    expect(resultMessage(call, okResult({ text: "" }, 1))).toMatchObject({ text: "(no output)" })
    expect(resultMessage(call, errorResult("NOT_FOUND", "not_found", "a does not exist"))).toMatchObject({ text: "error NOT_FOUND: a does not exist", error: true })
    expect(refusalMessage(call, "policy says no").text).toStartWith("refused: policy says no. This call did not run.")
    const big = resultMessage(call, okResult({ text: "x".repeat(RESULT_CAP * 3) }, 1))
    expect(big.role === "tool" && big.text.length).toBeLessThan(RESULT_CAP + 200)
  })

  test("every call gets exactly one result when sent: missing ones are filled in, duplicates dropped", () => {
    const { state, turn } = stateWithTurn()
    const done = resultMessage(turn.calls[0]!, okResult({ text: "ok" }, 1))
    state.messages.push(done, done)
    const sent = completeResults(state.messages).filter((m) => m.role === "tool")
    expect(sent.map((m) => m.role === "tool" && m.id)).toEqual(["c1", "c2"])
    expect(sent[1]).toMatchObject({ text: "not run: the run ended before this call", error: true })
  })

  test("the provider's prompt: system first, tool calls on the assistant message, consecutive results in one tool message", () => {
    const { state, turn } = stateWithTurn()
    state.messages.push(resultMessage(turn.calls[0]!, okResult({ text: "A" }, 1)), refusalMessage(turn.calls[1]!, "no"))
    const prompt = toPrompt("be careful", state.messages)
    expect(prompt.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool"])
    expect(prompt[0]).toEqual({ role: "system", content: "be careful" })
    const assistant = prompt[2] as { content: { type: string; toolCallId?: string; input?: unknown }[] }
    expect(assistant.content).toEqual([
      { type: "text", text: "looking" },
      { type: "tool-call", toolCallId: "c1", toolName: "read_file", input: { path: "a" } },
      { type: "tool-call", toolCallId: "c2", toolName: "shell", input: { command: "make" } },
    ] as never)
    const tool = prompt[3] as { content: { toolCallId: string; output: { type: string } }[] }
    expect(tool.content.map((p) => [p.toolCallId, p.output.type])).toEqual([["c1", "text"], ["c2", "text"]])
    const anthropic = toPrompt("s", state.messages, true)[3] as { content: { output: { type: string } }[] }
    expect(anthropic.content.map((p) => p.output.type)).toEqual(["text", "error-text"])
  })

  test("a replay script is the model's turns: text and calls, nothing else", () => {
    const { state, turn } = stateWithTurn()
    state.messages.push(resultMessage(turn.calls[0]!, okResult({ text: "A" }, 1)))
    state.messages.push(assistantMessage(state, 2, { text: "done", calls: [], usage: { input: 0, output: 0 } }))
    expect(replayTurns(state)).toEqual([
      { text: "looking", calls: [{ tool: "read_file", args: { path: "a" } }, { tool: "shell", args: { command: "make" } }] },
      { text: "done" },
    ])
  })
})
