// `ccode hook claude|gemini` without citty: every tool call of the host agent pays this process's
// start-up, so main.ts dispatches here first and this file imports only what a decision needs, all of
// it up front: the modules load while the host is still writing stdin.
// Fails closed: any problem is exit 2 with the reason on stderr, which both hosts treat as "block".
import { readSync, statSync, writeSync } from "node:fs"
import { homedir } from "node:os"
import { isAbsolute } from "node:path"
import { hookAuditRow, hostAnswer, HOSTS, parseHookPayload, verdictFor, type HostCall, type HookHost, type OnAsk } from "../core/hosts/index.ts"
import { decide, prepareCall } from "../core/policy/index.ts"
import type { Decision, Policy } from "../core/policy/types.ts"
import { policyStamp } from "../core/policy/fingerprint.ts"
import { appendAudit, type AuditInput } from "../core/audit/write.ts"
import { isPostgresUrl } from "../core/store/target.ts"
import { createRedactor } from "../core/redact/index.ts"
import { openSqlite, type SqliteStore as Store } from "../core/store/sqlite.ts"
import { dbTarget } from "./home.ts"
import { loadForCli } from "./policy-load.ts"
import type { Verdict } from "../core/hosts/verdict.ts"
import { mark } from "./trace.ts"

const ON_ASK: readonly OnAsk[] = ["prompt", "pause", "deny"]

export interface HookOptions {
  db?: string
  /** overrides the policy's approval.on_ask (headless hosts: deny) */
  onAsk?: OnAsk
}

/** argv after `hook`: HOST [--db PATH] [--on-ask prompt|pause|deny] [--quiet] [--verbose]. */
export async function hookMain(argv: string[]): Promise<number> {
  let host: string | undefined
  const opts: HookOptions = {}
  for (let i = 0; i < argv.length; i++) {
    const raw = argv[i]!
    const [flag, inline] = raw.startsWith("--") ? [raw.split("=")[0]!, raw.includes("=") ? raw.slice(raw.indexOf("=") + 1) : undefined] : [raw, undefined]
    const value = () => inline ?? argv[++i]
    if (flag === "--db") opts.db = value()
    else if (flag === "--on-ask") opts.onAsk = value() as OnAsk
    else if (flag === "--quiet" || flag === "--verbose") continue
    else if (!raw.startsWith("-") && host === undefined) host = raw
    else return usage(`unexpected argument ${raw}`)
    if ((flag === "--db" || flag === "--on-ask") && !(flag === "--db" ? opts.db : opts.onAsk)) return usage(`flag ${flag} needs a value`)
  }
  if (opts.onAsk !== undefined && !ON_ASK.includes(opts.onAsk)) return usage(`--on-ask takes prompt, pause or deny, got "${opts.onAsk}"`)
  if (!host || !HOSTS.includes(host as HookHost)) return usage(host ? `unknown host "${host}": use claude or gemini` : "which host? use `ccode hook claude` or `ccode hook gemini`")
  return runHook(host as HookHost, opts)
}

export async function runHook(host: HookHost, opts: HookOptions): Promise<number> {
  try {
    mark("entry")
    const text = readStdin()
    mark("stdin")
    const hook = parseHookPayload(host, text)
    const cwd = hookCwd(hook)
    const target = dbTarget(opts.db)
    // a fleet's shared PostgreSQL store: trust read from it, the audit row written to it (loaded only then)
    const remote = isPostgresUrl(target) ? await (await import("./hook-remote.ts")).openRemote(target) : undefined
    const store = remote ? undefined : openStore(target)
    mark("open store")
    const loaded = await loadForCli({ cwd, store, trustIn: remote?.trustIn })
    mark("policy load")
    const call = await prepareCall(hook.tool, hook.args, {
      cwd, workspace: loaded.workspace, home: homedir(), env: process.env, overrides: loaded.policy.risk.overrides, toolRisk: hook.risk, reads: hook.reads, policy: loaded.policy,
      host: hook.checks,
    })
    mark("prepare")
    const decision = decide(loaded.policy, call, { grants: [] })
    mark("decide")
    const verdict = verdictFor(decision, opts.onAsk ?? loaded.policy.approval.on_ask)
    const row = auditRow(hook, cwd, decision, verdict, loaded.policy)
    if (remote) await remote.append(row)
    else store!.tx(() => appendAudit(store!, row))
    mark("audit row")
    const answer = hostAnswer(host, verdict)
    // writeSync: process.stdout is a stream whose set-up alone costs milliseconds
    if (answer) writeSync(1, `${answer}\n`)
    return 0
  } catch (error) {
    writeSync(2, `ccode hook ${host}: ${(error as Error).message ?? String(error)} (call blocked)\n`)
    return 2
  }
}

function usage(problem: string): number {
  writeSync(2, `ccode hook: ${problem}\nsee \`ccode hook --help\`\n`)
  return 2
}

// a plain blocking read: Bun.stdin.text() sets up a stream and costs ~2 ms at start-up
function readStdin(): string {
  const chunks: Buffer[] = []
  const buf = Buffer.allocUnsafe(65536)
  for (;;) {
    let n: number
    try {
      n = readSync(0, buf, 0, buf.length, null)
    } catch (error) {
      if ((error as { code?: string }).code === "EAGAIN") continue
      if ((error as { code?: string }).code === "EOF") break
      throw error
    }
    if (n <= 0) break
    chunks.push(Buffer.from(buf.subarray(0, n)))
  }
  return Buffer.concat(chunks).toString("utf8")
}

function hookCwd(hook: HostCall): string {
  const cwd = hook.cwd ?? process.cwd()
  if (!isAbsolute(cwd)) throw new Error(`cwd "${cwd}" is not an absolute path`)
  if (!statSync(cwd, { throwIfNoEntry: false })?.isDirectory()) throw new Error(`cwd ${cwd} is not a directory`)
  return cwd
}

function openStore(file: string): Store {
  const store = openSqlite(file)
  // One row per process, then exit, which closes the database and checkpoints the WAL: with NORMAL that
  // is 4 fsyncs (2-8 ms) on every tool call of the host. OFF writes the same bytes without waiting for
  // the disk: a crash of any process loses nothing (the row is in the kernel before the answer is
  // printed); only an OS crash or power cut in the next seconds can lose the latest rows (docs/hosts.md).
  store.sqlite.run("PRAGMA synchronous = OFF")
  return store
}

// One audit row per decision, silent ones included; arguments are redacted before they are stored.
function auditRow(hook: HostCall, cwd: string, d: Decision, verdict: Verdict, policy: Policy): AuditInput {
  const { redaction } = policy
  const redactor = createRedactor({
    // CCODE_REDACT is already in the policy (the env layer), where a managed `redaction.enabled` can refuse it
    enabled: redaction.enabled, env: process.env, envNames: redaction.env,
    patterns: redaction.patterns, flags: redaction.flags, home: homedir(),
  })
  mark("redactor")
  const row = hookAuditRow(hook, cwd, d, verdict, redactor, policyStamp(policy))
  mark("redact row")
  return row
}
