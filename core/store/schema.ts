// The database schema, as code. Every table's indexes sit next to its columns.
// Times are milliseconds since the epoch; JSON columns hold redacted data only.
import { sql } from "drizzle-orm"
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core"
import type { DecisionKind, Risk } from "../base/risk.ts"

// What the text columns below may hold, so rows read back typed (type-only: the SQL is unchanged).
export type RunStatus = "running" | "paused" | "stopped" | "interrupted" | "denied" | "completed" | "failed" | "cancelled"
export type RunDriver = "steps" | "agent" | "mcp" | "hook"
export type CallStatus = "pending" | "running" | "ok" | "error" | "denied" | "interrupted" | "abandoned"
export type RequestKind = "approval" | "question" | "breakpoint" | "in_flight"
export type RequestStatus = "pending" | "approved" | "denied" | "answered" | "cancelled"

export const runs = sqliteTable(
  "runs",
  {
    id: text("id").primaryKey(),
    task: text("task").notNull(),
    taskFile: text("task_file").notNull(),
    workdir: text("workdir").notNull(),
    status: text("status").$type<RunStatus>().notNull(),
    driver: text("driver").$type<RunDriver>().notNull(),
    policyHash: text("policy_hash"),
    pid: integer("pid"),
    host: text("host"),
    batch: text("batch"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    finishedAt: integer("finished_at"),
    exitCode: integer("exit_code"),
    message: text("message"),
    options: text("options"), // JSON: the run's command-line options, reused on resume
  },
  (t) => [index("runs_created_idx").on(t.createdAt), index("runs_status_idx").on(t.status)],
)

export const planItems = sqliteTable(
  "plan_items",
  {
    runId: text("run_id").notNull().references(() => runs.id, { onDelete: "cascade" }),
    id: text("id").notNull(),
    seq: integer("seq").notNull(),
    title: text("title").notNull(),
    state: text("state").notNull(), // pending | ready | active | done | failed | skipped | blocked
    attempts: integer("attempts").notNull().default(0),
    updatedAt: integer("updated_at").notNull(),
    // the rest of a plan item, so the rows are the plan's durable form (checkpoints do not repeat it)
    needs: text("needs").notNull().default("[]"), // JSON array of item ids
    continueOnError: integer("continue_on_error", { mode: "boolean" }).notNull().default(false),
    depth: integer("depth").notNull().default(0),
    note: text("note"),
    waiting: integer("waiting", { mode: "boolean" }).notNull().default(false),
    denied: text("denied"), // policy | person
  },
  (t) => [primaryKey({ columns: [t.runId, t.id] })],
)

export const calls = sqliteTable(
  "calls",
  {
    id: text("id").primaryKey(),
    runId: text("run_id").notNull().references(() => runs.id, { onDelete: "cascade" }),
    seq: integer("seq").notNull(),
    itemId: text("item_id"),
    attempt: integer("attempt").notNull().default(1),
    tool: text("tool").notNull(),
    args: text("args").notNull(), // redacted JSON
    argsHash: text("args_hash").notNull(),
    decision: text("decision").$type<DecisionKind>(),
    risk: text("risk").$type<Risk>(),
    decidedBy: text("decided_by"),
    status: text("status").$type<CallStatus>().notNull(),
    startedAt: integer("started_at").notNull(),
    finishedAt: integer("finished_at"),
    durationMs: integer("duration_ms"),
    exitCode: integer("exit_code"),
    pgid: integer("pgid"), // the step's process group: found again on resume after a crash
    output: text("output"), // redacted head + tail
    bytes: integer("bytes"),
    errorCode: text("error_code"),
    errorType: text("error_type"),
    errorMessage: text("error_message"),
  },
  (t) => [uniqueIndex("calls_run_seq_idx").on(t.runId, t.seq), index("calls_status_idx").on(t.runId, t.status)],
)

export const checkpoints = sqliteTable(
  "checkpoints",
  {
    runId: text("run_id").notNull().references(() => runs.id, { onDelete: "cascade" }),
    seq: integer("seq").notNull(),
    createdAt: integer("created_at").notNull(),
    state: text("state").notNull(), // JSON RunState
  },
  (t) => [primaryKey({ columns: [t.runId, t.seq] })],
)

export const events = sqliteTable(
  "events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    runId: text("run_id").notNull().references(() => runs.id, { onDelete: "cascade" }),
    ts: integer("ts").notNull(),
    type: text("type").notNull(),
    data: text("data").notNull(), // the whole redacted event object as JSON
  },
  (t) => [index("events_run_idx").on(t.runId, t.id)],
)

export const requests = sqliteTable(
  "requests",
  {
    id: text("id").primaryKey(),
    runId: text("run_id").notNull().references(() => runs.id, { onDelete: "cascade" }),
    callId: text("call_id"),
    itemId: text("item_id"),
    kind: text("kind").$type<RequestKind>().notNull(),
    status: text("status").$type<RequestStatus>().notNull(),
    title: text("title").notNull(),
    detail: text("detail"), // JSON: tool, args, risk, rules, reason
    answer: text("answer"),
    forRun: integer("for_run", { mode: "boolean" }).notNull().default(false),
    createdAt: integer("created_at").notNull(),
    settledAt: integer("settled_at"),
    settledBy: text("settled_by"),
  },
  (t) => [index("requests_run_idx").on(t.runId, t.status)],
)

export const grants = sqliteTable(
  "grants",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    runId: text("run_id").notNull().references(() => runs.id, { onDelete: "cascade" }),
    tool: text("tool").notNull(),
    pattern: text("pattern"),
    source: text("source").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("grants_run_idx").on(t.runId)],
)

// Audit rows are never cascaded away with their run: compliance keeps them.
export const audit = sqliteTable(
  "audit",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    ts: integer("ts").notNull(),
    runId: text("run_id"),
    callId: text("call_id"),
    type: text("type").notNull(),
    actor: text("actor").notNull(),
    tool: text("tool"),
    action: text("action"),
    result: text("result"),
    risk: text("risk"),
    autoApproved: integer("auto_approved", { mode: "boolean" }),
    reason: text("reason"),
    data: text("data"),
    prevHash: text("prev_hash").notNull(),
    hash: text("hash").notNull(),
  },
  (t) => [index("audit_run_idx").on(t.runId, t.id), index("audit_ts_idx").on(t.ts), index("audit_type_idx").on(t.type, t.ts)],
)

// The audit chain's head (one row, id 1), updated in the same transaction as every append: a
// removed last row, which leaves no broken link behind it, still shows as missing.
export const auditHead = sqliteTable("audit_head", {
  id: integer("id").primaryKey(),
  lastId: integer("last_id").notNull(),
  hash: text("hash").notNull(),
})

export const trust = sqliteTable("trust", {
  path: text("path").primaryKey(),
  hash: text("hash").notNull(),
  trustedAt: integer("trusted_at").notNull(),
})

export const snapshots = sqliteTable(
  "snapshots",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    runId: text("run_id").notNull().references(() => runs.id, { onDelete: "cascade" }),
    callId: text("call_id"),
    step: integer("step").notNull(), // call seq the snapshot was taken before
    ref: text("ref").notNull(), // commit id in the shadow repository
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("snapshots_run_idx").on(t.runId, t.step)],
)

// An agent run's conversation, append-only and redacted. The checkpoint holds only the messages
// after the last row stored here, so checkpoints stay small however long the conversation grows.
export const agentMessages = sqliteTable(
  "agent_messages",
  {
    runId: text("run_id").notNull().references(() => runs.id, { onDelete: "cascade" }),
    seq: integer("seq").notNull(),
    message: text("message").notNull(), // JSON of one message
  },
  (t) => [primaryKey({ columns: [t.runId, t.seq] })],
)

export const usage = sqliteTable(
  "usage",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    runId: text("run_id").notNull().references(() => runs.id, { onDelete: "cascade" }),
    turn: integer("turn").notNull(),
    model: text("model").notNull(),
    inputTokens: integer("input_tokens").notNull().default(0),
    outputTokens: integer("output_tokens").notNull().default(0),
    cost: real("cost").notNull().default(0),
    createdAt: integer("created_at").notNull().default(sql`(unixepoch() * 1000)`),
  },
  (t) => [index("usage_run_idx").on(t.runId)],
)
