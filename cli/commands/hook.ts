// ccode hook claude|gemini as a citty command: only for --help and flag checking. The hook itself runs
// from cli/hook.ts, which main.ts dispatches to before loading citty (start-up time).
import { globalArgs } from "../args.ts"
import { command } from "../command.ts"

export default command({
  meta: { name: "hook", description: "Decide another agent's tool call: Claude Code PreToolUse or Gemini CLI BeforeTool hook" },
  examples: [
    `.claude/settings.json: {"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": "ccode hook claude"}]}]}}`,
    `.gemini/settings.json: {"hooks": {"BeforeTool": [{"matcher": ".*", "hooks": [{"type": "command", "command": "ccode hook gemini"}]}]}}`,
    `headless (gemini -p, claude -p): ccode hook gemini --on-ask deny`,
    `echo '{"tool_name":"Bash","tool_input":{"command":"git push -f"},"cwd":"'$PWD'"}' | ccode hook claude`,
  ],
  args: {
    host: { type: "positional", description: "claude | gemini", required: true },
    "on-ask": { type: "string", description: "what a call needing approval becomes: prompt (the host asks), pause or deny (denied with the reason); default: the policy's approval.on_ask", valueHint: "prompt|pause|deny" },
    ...globalArgs,
  },
  async run({ rawArgs }) {
    const { hookMain } = await import("../hook.ts")
    return hookMain(rawArgs)
  },
})
