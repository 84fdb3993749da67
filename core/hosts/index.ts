// Hook mode: other agents' tool calls (Claude Code PreToolUse, Gemini CLI BeforeTool) as ccode calls,
// and ccode's decision as each host's answer. Pure; the CLI (cli/hook.ts) does the I/O around it.
import { claudeAnswer } from "./claude.ts"
import { geminiAnswer } from "./gemini.ts"
import type { HookHost } from "./types.ts"
import type { Verdict } from "./verdict.ts"

export { parseHookPayload, HOST_TABLES } from "./payload.ts"
export { verdictFor, type Verdict, type Answer, type OnAsk } from "./verdict.ts"
export { hookAuditRow } from "./audit.ts"
export { HookInputError, type HostCall, type HookHost, type HostTable, type HostTool } from "./types.ts"

export const HOSTS: readonly HookHost[] = ["claude", "gemini"]

/** The JSON line the host reads on stdout, or undefined to print nothing. */
export function hostAnswer(host: HookHost, verdict: Verdict): string | undefined {
  return host === "claude" ? claudeAnswer(verdict) : geminiAnswer(verdict)
}
