// ccode hook claude|gemini: another agent's PreToolUse/BeforeTool hook (DESIGN section 9). Reads the
// host's JSON on stdin, decides with the policy of its cwd, writes an audit row, answers on stdout.
// Fails closed: any problem is exit 2 with the reason on stderr, which both hosts treat as "block".
import { statSync } from "node:fs"
import { homedir } from "node:os"
import { isAbsolute } from "node:path"
import { decide, hookResponse, parseHookPayload, prepareCall, type HookCall, type HookHost } from "../../core/policy/index.ts"
import type { Decision, Policy } from "../../core/policy/types.ts"
import { policyStamp } from "../../core/policy/fingerprint.ts"
import type { SqliteStore as Store } from "../../core/store/sqlite.ts"
import { globalArgs } from "../args.ts"
import { command } from "../command.ts"
import { loadForCli } from "./policy.ts"

const HOSTS: HookHost[] = ["claude", "gemini"]

export default command({
  meta: { name: "hook", description: "Decide another agent's tool call: Claude Code PreToolUse or Gemini CLI BeforeTool hook" },
  examples: [
    `.claude/settings.json: {"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": "ccode hook claude"}]}]}}`,
    `.gemini/settings.json: {"hooks": {"BeforeTool": [{"matcher": ".*", "hooks": [{"type": "command", "command": "ccode hook gemini"}]}]}}`,
    `echo '{"tool_name":"Bash","tool_input":{"command":"git push -f"},"cwd":"'$PWD'"}' | ccode hook claude`,
  ],
  args: {
    host: { type: "positional", description: "claude | gemini", required: true },
    ...globalArgs,
  },
  async run({ args }) {
    const host = (args._ as string[])[0] as HookHost
    let store: Store | undefined
    try {
      if (!HOSTS.includes(host)) throw new Error(`unknown host "${host}": use claude or gemini`)
      const hook = parseHookPayload(host, await Bun.stdin.text())
      const cwd = hookCwd(hook)
      store = await openStore(args.db as string | undefined)
      const loaded = await loadForCli({ cwd, store })
      const call = await prepareCall(hook.tool, hook.args, {
        cwd, workspace: loaded.workspace, home: homedir(), env: process.env, overrides: loaded.policy.risk.overrides,
      })
      const decision = decide(loaded.policy, call, { grants: [] })
      await audit(store, hook, cwd, decision, loaded.policy)
      const answer = hookResponse(host, decision)
      if (answer) console.log(answer)
      return 0
    } catch (error) {
      console.error(`ccode hook ${host}: ${(error as Error).message ?? String(error)} (call blocked)`)
      return 2
    } finally {
      store?.close()
    }
  },
})

function hookCwd(hook: HookCall): string {
  const cwd = hook.cwd ?? process.cwd()
  if (!isAbsolute(cwd)) throw new Error(`cwd "${cwd}" is not an absolute path`)
  if (!statSync(cwd, { throwIfNoEntry: false })?.isDirectory()) throw new Error(`cwd ${cwd} is not a directory`)
  return cwd
}

async function openStore(db: string | undefined): Promise<Store> {
  const [{ openSqlite }, { dbPath }] = await Promise.all([import("../../core/store/sqlite.ts"), import("../home.ts")])
  return openSqlite(dbPath(db))
}

// One audit row per decision, silent ones included; arguments are redacted before they are stored.
async function audit(store: Store, hook: HookCall, cwd: string, d: Decision, policy: Policy): Promise<void> {
  const { redaction } = policy
  const { createRedactor } = await import("../../core/redact/index.ts")
  const { appendAudit } = await import("../../core/audit/write.ts")
  const redactor = createRedactor({
    // CCODE_REDACT is already in the policy (the env layer), where a managed `redaction.enabled` can refuse it
    enabled: redaction.enabled, env: process.env, envNames: redaction.env,
    patterns: redaction.patterns, home: homedir(),
  })
  const data = redactor.value({
    host: hook.host, host_tool: hook.hostTool, session: hook.session, cwd, args: hook.args, by: d.by,
    rules: d.rules, commands: d.commands.map((c) => ({ text: c.text, risk: c.risk, decision: c.decision, rule: c.rule })),
    ...policyStamp(policy),
  })
  store.tx(() =>
    appendAudit(store, {
      type: "decision", actor: "hook", tool: hook.tool,
      action: redactor.text(typeof hook.args.command === "string" ? hook.args.command : hook.hostTool),
      result: d.decision === "allow" ? "approved" : d.decision === "deny" ? "denied" : "asked",
      risk: d.risk, autoApproved: d.decision === "allow", reason: redactor.text(d.reason), data: JSON.stringify(data),
    }),
  )
}
