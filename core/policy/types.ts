// The effective policy and the values decide() works on. Plain data, no behaviour.
import type { Risk, DecisionKind } from "../base/risk.ts"
import type { Rule, RiskCommand, RiskPath } from "./schema.ts"
import type { ShellAnalysis, TouchedPath } from "../shell/types.ts"
import type { OwnPaths } from "./owndirs.ts"

export type LayerName = "builtin" | "managed" | "user" | "workspace" | "task" | "env" | "flags"

export interface Sourced {
  /** "file:line" (or "env:CCODE_X", "flag:--yes", "builtin:default.yaml:12") */
  source: string
  layer: LayerName
  trusted: boolean
}

export type PolicyRule = Rule & Sourced & { id: string }
export type PolicyRiskCommand = RiskCommand & Sourced & { id: string }

export interface Policy {
  extends: "default" | "strict" | "ci" | "none"
  approval: {
    mode: "manual" | "auto" | "allowlist" | "yolo"
    threshold: Risk
    tools: string[]
    on_ask: "prompt" | "pause" | "deny"
    timeout: number
    /** auto mode: calls that run inside the OS sandbox are auto-approved up to this risk */
    sandboxed_threshold: Risk
  }
  rules: PolicyRule[]
  risk: {
    tools: Record<string, Risk>
    commands: PolicyRiskCommand[]
    paths: RiskPath[]
    overrides: Record<string, Risk>
    /** levels set by untrusted layers for tools the policy had no level for: they can raise a tool's own risk, never lower it */
    tool_floors?: Record<string, Risk>
  }
  limits: {
    max_steps: number
    max_tool_calls: number
    max_depth: number
    max_wall_time: number
    tool_timeout: number
    tool_timeouts: Record<string, number>
    /** a trusted task's step `timeout:` may go up to this, beyond the tool's timeout */
    max_tool_timeout?: number
    idle_timeout: number
    retries: number
    retry_backoff: number
    max_noop_iterations: number
    parallel: number
    max_tokens?: number
    max_cost?: number
  }
  loop_detection: {
    repeat_threshold: number
    error_repeat_threshold: number
    similarity: number
    window: number
    time_window: number
    oscillation: boolean
  }
  circuit_breaker: { failure_threshold: number; recovery_timeout: number }
  workspace: { confine: boolean; protected: string[]; detect_external_changes: boolean }
  redaction: { enabled: boolean; patterns: { id: string; regex: string }[]; env: string[]; flags: Record<string, string[]> }
  sandbox: SandboxPolicy
  mcp: { servers: Record<string, { command?: string; args?: string[]; env?: Record<string, string>; url?: string; timeout?: number }> }
  prices: Record<string, { input_per_mtok: number; output_per_mtok: number }>
  /** dotted key -> where its value came from ("approval.threshold" -> ".ccode/policy.yaml:4") */
  sources: Record<string, string>
  /** grants of untrusted layers that were ignored, one line each */
  ignored: string[]
  /** dotted key -> the managed source no other layer may loosen it past */
  locked?: Record<string, string>
  /** short hash of the effective policy: names the policy that decided a call in events and the audit */
  fingerprint?: string
  /** ids of the keys that signed the managed policy files in effect */
  managed_keys?: string[]
}

export interface SandboxPolicy {
  mode: "off" | "auto" | "required"
  /** a host list is not supported yet and is enforced as none */
  network: "none" | "allow" | string[]
  writable: string[]
  hidden: string[]
  read_only: string[]
  /** preview, confirm, commit for every sandboxed shell call */
  preview: boolean
}

/** A proposed tool call, prepared with everything decide() needs (I/O done beforehand). */
export interface Call {
  tool: string
  args: Record<string, unknown>
  /** absolute working directory of the call */
  cwd: string
  /** absolute workspace root (after realpath) */
  workspace: string
  home: string
  tmpDirs: string[]
  /** base risk the tool itself declares (static or computed from args); undefined: unknown tool */
  toolRisk?: Risk
  /** shell tool: the analysed command */
  shell?: ShellAnalysis
  /** risk raised by the run's setting rather than the call (a trusted task's env: sets loader variables) */
  raised?: { risk: Risk; reason: string }[]
  /** paths the call touches (the tool's declaration; shell: from analysis) */
  paths: CallPath[]
  /** the call will run inside the OS sandbox */
  sandboxed?: boolean
  /** the workspace's git directories when its `.git` is a file or link pointing elsewhere (a writes
   *  there is judged as the same write below .git) */
  gitDirs?: string[]
  /** the hooks folders core.hooksPath names for the workspace's repository (husky's .husky/_ and
   *  .husky): a write there is a write to .git/hooks by another name */
  hooksDirs?: string[]
  /** ccode's own policy folder, data folder, database and managed policy folder (owndirs.ts) */
  ownPaths?: OwnPaths
  /** the files the repository's git configs include (include.path, includeIf.*.path), each with the
   *  file that includes it: writing one writes git configuration */
  gitIncludes?: { file: string; by: string }[]
}

/** A path a call touches, resolved; `dir`: a folder the tool reads below (list_dir, glob, grep). */
export interface CallPath extends TouchedPath {
  dir?: boolean
}

export interface Grant {
  tool: string
  /** a command pattern for shell grants ("git commit *"), a path glob for file tools, or undefined = whole tool */
  pattern?: string
  /** a compound shell command: one pattern per distinct part; a part is covered when any of them matches */
  patterns?: string[]
  source: string
}

export interface GuardTrip {
  guard: string
  reason: string
  action: "deny" | "pause"
}

/** What decide() knows besides the call: a guard that tripped, and the grants given so far. */
export interface DecideState {
  tripped?: GuardTrip
  grants: Grant[]
}

export interface MatchedRule {
  id: string
  decision: DecisionKind
  source: string
  reason?: string
}

export interface CommandVerdict {
  text: string
  program: string
  args: string[]
  risk: Risk
  reasons: string[]
  decision?: DecisionKind
  rule?: string
}

export interface Decision {
  decision: DecisionKind
  risk: Risk
  reason: string
  by: "rule" | "threshold" | "mode" | "guard" | "user" | "grant"
  rules: MatchedRule[]
  commands: CommandVerdict[]
  /** what an `ask` turns into when nobody can answer (policy approval.on_ask) */
  on_ask: "prompt" | "pause" | "deny"
  guard?: string
  /** the call runs inside the OS sandbox (decide() always says; other producers may leave it out = false) */
  sandboxed?: boolean
}
