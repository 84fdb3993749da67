// The policy file format (one layer). Every field is optional because layers merge;
// unknown keys are errors. Pure: no fs. The .describe() texts become the JSON Schema
// (`ccode policy schema`) that gives editors completion.
import { z } from "zod"
import { parseHostEntry } from "../base/hosts.ts"
import { Duration } from "../base/duration.ts"
import { DECISIONS, RISKS } from "../base/risk.ts"

export const RiskLevel = z.enum(RISKS).describe("risk level: safe < low < medium < high < critical")
export const DecisionValue = z.enum(DECISIONS).describe("allow | ask | deny; among matching rules deny > ask > allow")
const OneOrMany = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)])
// a sandbox.network entry: `example.com`, `*.example.com`, `host:8443`, `10.0.0.5`, `[::1]:8080`
const HostEntry = z.string().min(1).superRefine((entry, ctx) => {
  const problem = parseHostEntry(entry)
  if (typeof problem === "string") ctx.addIssue({ code: "custom", message: problem })
})
const Dur = Duration.describe("a duration: 250ms, 30s, 5m, 1h, or a number of milliseconds")

export const Examples = z
  .strictObject({
    match: z.array(z.string()).optional().describe("calls the rule must match (shell rules: commands)"),
    no_match: z.array(z.string()).optional().describe("calls the rule must not match"),
  })
  .describe("self-tests, checked when the policy loads and by `ccode policy test`")

export const Rule = z
  .strictObject({
    id: z.string().min(1).optional().describe("name shown in decisions and the audit"),
    tool: OneOrMany.optional().describe("tool name, list, or glob (mcp:github/*); alone it matches every call of the tool"),
    command: OneOrMany.optional().describe("shell token patterns: `*` token = any tokens, `x*` = a token prefix; every part of a compound command must match an allow"),
    path: OneOrMany.optional().describe("path globs: no `/` = a file name at any depth; otherwise relative to the workspace unless it starts with / or ~/; dir/** includes dir"),
    access: z.enum(["read", "write", "any"]).optional().describe("which touched paths `path` applies to (default any)"),
    args: z.record(z.string(), z.string()).optional().describe("a regex per argument field; all must match"),
    decision: DecisionValue,
    reason: z.string().optional().describe("told to the user and the agent"),
    examples: Examples.optional(),
  })
  .describe("a decision for matching calls: all given matchers must match")
export type Rule = z.infer<typeof Rule>

export const RiskCommand = z
  .strictObject({
    id: z.string().min(1).optional(),
    regex: z.string().min(1).describe("matched against the whole command and each simple command"),
    level: RiskLevel,
    reason: z.string().optional(),
    examples: Examples.optional(),
  })
  .describe("raises the risk of shell commands matching a regex")
export type RiskCommand = z.infer<typeof RiskCommand>

export const RiskPath = z
  .strictObject({ path: z.string().min(1).describe("path glob (as in rules)"), level: RiskLevel })
  .describe("risk of any call touching a matching path")
export type RiskPath = z.infer<typeof RiskPath>

export const Approval = z
  .strictObject({
    mode: z.enum(["manual", "auto", "allowlist", "yolo"]).optional()
      .describe("when no rule matched: manual asks; auto allows at or below threshold; allowlist allows `tools`; yolo allows (never critical)"),
    threshold: RiskLevel.optional().describe("auto mode: auto-approve at or below this risk"),
    tools: z.array(z.string()).optional().describe("allowlist mode: these tools are auto-approved"),
    on_ask: z.enum(["prompt", "pause", "deny"]).optional().describe("what an ask becomes: prompt a person; pause the run (exit 3); deny the call"),
    timeout: Dur.optional().describe("an unanswered prompt becomes on_ask's non-interactive action"),
    sandboxed_threshold: RiskLevel.optional()
      .describe("auto mode: a call that runs inside the OS sandbox is auto-approved up to this risk (never critical)"),
  })
  .describe("how calls no rule decided are approved")

export const Limits = z
  .strictObject({
    max_steps: z.number().int().positive().optional().describe("agent turns"),
    max_tool_calls: z.number().int().positive().optional(),
    max_depth: z.number().int().positive().optional().describe("nested sub-agents / tool-in-tool"),
    max_wall_time: Dur.optional().describe("the whole run, counted across resumes"),
    tool_timeout: Dur.optional(),
    tool_timeouts: z.record(z.string(), Dur).optional().describe("per tool, e.g. { shell: 2m }"),
    max_tool_timeout: Dur.optional().describe("how far a trusted task's step `timeout:` may go beyond the tool's timeout"),
    idle_timeout: Dur.optional().describe("a tool producing no output for this long is killed"),
    retries: z.number().int().nonnegative().optional(),
    retry_backoff: Dur.optional().describe("exponential, with jitter"),
    max_noop_iterations: z.number().int().positive().optional().describe("agent turns with no workspace change and no new result"),
    parallel: z.number().int().positive().optional(),
    max_tokens: z.number().int().positive().optional(),
    max_cost: z.number().positive().optional(),
  })
  .describe("limits of a run")

export const LoopDetection = z
  .strictObject({
    repeat_threshold: z.number().int().min(2).optional().describe("same tool + same args"),
    error_repeat_threshold: z.number().int().min(2).optional().describe("same tool, similar error"),
    similarity: z.number().min(0).max(1).optional().describe("Jaccard similarity of normalised errors"),
    window: z.number().int().min(2).optional().describe("calls looked at"),
    time_window: Dur.optional(),
    oscillation: z.boolean().optional().describe("detect A,B,A,B,A,B"),
  })
  .describe("doom-loop detection")

export const CircuitBreaker = z
  .strictObject({
    failure_threshold: z.number().int().positive().optional().describe("consecutive failures of one tool"),
    recovery_timeout: Dur.optional().describe("then half-open: one trial call"),
  })

export const Workspace = z.strictObject({
  confine: z.boolean().optional().describe("file tools refuse paths outside the workspace"),
  protected: z.array(z.string()).optional().describe("path globs; writes here are critical"),
  detect_external_changes: z.boolean().optional().describe("pause when the workspace changes between steps outside ccode"),
})

export const Redaction = z.strictObject({
  enabled: z.boolean().optional(),
  patterns: z.array(z.strictObject({ id: z.string().min(1), regex: z.string().min(1) })).optional().describe("extra secret patterns"),
  env: z.array(z.string()).optional().describe("exact values of these env vars are masked everywhere"),
  flags: z
    .record(
      z.string().regex(/^[\w.+-]+$/, "a program name (no path, no spaces)"),
      z.array(z.string().regex(/^(?:--?|\/)[^\s=]+$/, "a flag as typed: -p, --token, -storepass, /p:")),
    )
    .optional()
    .describe("program -> flags whose value is a secret, beside the built-in table (mysql -p, curl -u, ...)"),
})

export const SANDBOX_MODES = ["off", "auto", "required"] as const
export const Sandbox = z
  .strictObject({
    mode: z.enum(SANDBOX_MODES).optional()
      .describe("off: no OS sandbox; auto: use it when it works, warn once when it does not; required: refuse to run shell calls without it (exit 2)"),
    network: z.union([z.enum(["none", "allow"]), z.array(HostEntry)]).optional()
      .describe("none: no network inside; allow: the host's network; [host, ...]: only these hosts, through ccode's proxy (host = 443 and 80, host:port, *.example.com)"),
    writable: z.array(z.string().min(1)).optional().describe("paths writable besides the workspace and the run's temp dir"),
    hidden: z.array(z.string().min(1)).optional().describe("paths that look empty inside (added to ~/.ssh, ~/.aws, ~/.gnupg, ...)"),
    read_only: z.array(z.string().min(1)).optional().describe("paths kept read-only inside writable roots (added to .git/hooks, .git/config, .ccode, ...)"),
    preview: z.boolean().optional().describe("run every shell call against a copy of the workspace, show the diff, apply it only when approved"),
  })
  .describe("the OS sandbox (bubblewrap) shell calls run in")

export const McpServer = z.strictObject({
  command: z.string().optional(),
  args: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional(),
  url: z.string().optional(),
  timeout: Dur.optional(),
})

export const Price = z.strictObject({
  input_per_mtok: z.number().nonnegative(),
  output_per_mtok: z.number().nonnegative(),
})

export const PolicyFile = z
  .strictObject({
    $schema: z.string().optional(),
    version: z.literal(1).optional(),
    extends: z.enum(["default", "strict", "ci", "none"]).optional()
      .describe("the bundled base policy; an untrusted file may only pick strict"),
    approval: Approval.optional(),
    rules: z.array(Rule).optional(),
    risk: z
      .strictObject({
        tools: z.record(z.string(), RiskLevel).optional().describe("base risk per tool name or glob"),
        commands: z.array(RiskCommand).optional(),
        paths: z.array(RiskPath).optional(),
        // levels of named built-in classifier entries, e.g. { "git-push": medium }
        overrides: z.record(z.string(), RiskLevel).optional().describe("levels of named built-in shell classifier entries"),
      })
      .optional(),
    limits: Limits.optional(),
    loop_detection: LoopDetection.optional(),
    circuit_breaker: CircuitBreaker.optional(),
    workspace: Workspace.optional(),
    redaction: Redaction.optional(),
    sandbox: Sandbox.optional(),
    mcp: z.strictObject({ servers: z.record(z.string(), McpServer).optional() }).optional(),
    prices: z.record(z.string(), Price).optional().describe("model -> price per million tokens, for limits.max_cost"),
  })
  .describe("a ccode policy layer (.ccode/policy.yaml, ~/.config/ccode/policy.yaml, a task's policy:)")
export type PolicyFile = z.infer<typeof PolicyFile>
