// The policy file format (one layer). Every field is optional because layers merge;
// unknown keys are errors. Pure: no fs.
import { z } from "zod"
import { Duration } from "../task/duration.ts"
import { DECISIONS, RISKS } from "./risk.ts"

export const RiskLevel = z.enum(RISKS)
export const DecisionValue = z.enum(DECISIONS)
const OneOrMany = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)])

export const Examples = z.strictObject({
  match: z.array(z.string()).optional(),
  no_match: z.array(z.string()).optional(),
})

export const Rule = z.strictObject({
  id: z.string().min(1).optional(),
  tool: OneOrMany.optional(),
  command: OneOrMany.optional(),
  path: OneOrMany.optional(),
  access: z.enum(["read", "write", "any"]).optional(),
  args: z.record(z.string(), z.string()).optional(),
  decision: DecisionValue,
  reason: z.string().optional(),
  examples: Examples.optional(),
})
export type Rule = z.infer<typeof Rule>

export const RiskCommand = z.strictObject({
  id: z.string().min(1).optional(),
  regex: z.string().min(1),
  level: RiskLevel,
  reason: z.string().optional(),
  examples: Examples.optional(),
})
export type RiskCommand = z.infer<typeof RiskCommand>

export const RiskPath = z.strictObject({ path: z.string().min(1), level: RiskLevel })
export type RiskPath = z.infer<typeof RiskPath>

export const Approval = z.strictObject({
  mode: z.enum(["manual", "auto", "allowlist", "yolo"]).optional(),
  threshold: RiskLevel.optional(),
  tools: z.array(z.string()).optional(),
  on_ask: z.enum(["prompt", "pause", "deny"]).optional(),
  timeout: Duration.optional(),
})

export const Limits = z.strictObject({
  max_steps: z.number().int().positive().optional(),
  max_tool_calls: z.number().int().positive().optional(),
  max_depth: z.number().int().positive().optional(),
  max_wall_time: Duration.optional(),
  tool_timeout: Duration.optional(),
  tool_timeouts: z.record(z.string(), Duration).optional(),
  idle_timeout: Duration.optional(),
  retries: z.number().int().nonnegative().optional(),
  retry_backoff: Duration.optional(),
  max_noop_iterations: z.number().int().positive().optional(),
  parallel: z.number().int().positive().optional(),
  max_tokens: z.number().int().positive().optional(),
  max_cost: z.number().positive().optional(),
})

export const LoopDetection = z.strictObject({
  repeat_threshold: z.number().int().min(2).optional(),
  error_repeat_threshold: z.number().int().min(2).optional(),
  similarity: z.number().min(0).max(1).optional(),
  window: z.number().int().min(2).optional(),
  time_window: Duration.optional(),
  oscillation: z.boolean().optional(),
})

export const CircuitBreaker = z.strictObject({
  failure_threshold: z.number().int().positive().optional(),
  recovery_timeout: Duration.optional(),
})

export const Workspace = z.strictObject({
  confine: z.boolean().optional(),
  protected: z.array(z.string()).optional(),
  detect_external_changes: z.boolean().optional(),
})

export const Redaction = z.strictObject({
  enabled: z.boolean().optional(),
  patterns: z.array(z.strictObject({ id: z.string().min(1), regex: z.string().min(1) })).optional(),
  env: z.array(z.string()).optional(),
})

export const McpServer = z.strictObject({
  command: z.string().optional(),
  args: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional(),
  url: z.string().optional(),
  timeout: Duration.optional(),
})

export const Price = z.strictObject({
  input_per_mtok: z.number().nonnegative(),
  output_per_mtok: z.number().nonnegative(),
})

export const PolicyFile = z.strictObject({
  $schema: z.string().optional(),
  version: z.literal(1).optional(),
  extends: z.enum(["default", "strict", "ci", "none"]).optional(),
  approval: Approval.optional(),
  rules: z.array(Rule).optional(),
  risk: z
    .strictObject({
      tools: z.record(z.string(), RiskLevel).optional(),
      commands: z.array(RiskCommand).optional(),
      paths: z.array(RiskPath).optional(),
      // levels of named built-in classifier entries, e.g. { "git-push": medium }
      overrides: z.record(z.string(), RiskLevel).optional(),
    })
    .optional(),
  limits: Limits.optional(),
  loop_detection: LoopDetection.optional(),
  circuit_breaker: CircuitBreaker.optional(),
  workspace: Workspace.optional(),
  redaction: Redaction.optional(),
  mcp: z.strictObject({ servers: z.record(z.string(), McpServer).optional() }).optional(),
  prices: z.record(z.string(), Price).optional(),
})
export type PolicyFile = z.infer<typeof PolicyFile>
