// The replay provider: recorded model turns played back as the model's answers, so the whole
// loop runs with no model (offline examples, re-running a session under another policy).
import { existsSync, readFileSync } from "node:fs"
import { z } from "zod"
import { ConfigError, parseYaml, validateYaml } from "../base/yaml.ts"
import type { Provider, ReplayTurn } from "./types.ts"

export const ReplayScript = z.array(
  z.strictObject({
    text: z.string().optional(),
    calls: z
      .array(z.strictObject({ tool: z.string().min(1), args: z.record(z.string(), z.unknown()).optional() }))
      .optional(),
  }),
)

/** Load and check a replay script; every problem is a ConfigError with file:line:col. */
export function loadReplayScript(file: string): ReplayTurn[] {
  if (!existsSync(file)) throw new ConfigError(file, 1, 1, "replay script not found")
  const source = parseYaml(readFileSync(file, "utf8"), file)
  const turns = validateYaml(source, ReplayScript)
  return turns.map((t) => ({ text: t.text, calls: t.calls?.map((c) => ({ tool: c.tool, args: c.args ?? {} })) }))
}

/**
 * Turn N of the conversation is line N of the script, counted from the assistant messages already
 * in it, so a resumed run picks up exactly where it stopped.
 */
export function replayProvider(turns: ReplayTurn[]): Provider {
  return {
    name: "replay",
    model: "replay",
    async turn({ messages }) {
      const index = messages.filter((m) => m.role === "assistant").length
      const turn = turns[index]
      if (!turn) return { text: "(the replay script has no more turns)", calls: [], usage: { input: 0, output: 0 } }
      return {
        text: turn.text ?? "",
        calls: (turn.calls ?? []).map((c, i) => ({ id: `replay_${index + 1}_${i + 1}`, tool: c.tool, args: c.args })),
        usage: { input: 0, output: 0 },
      }
    },
  }
}
