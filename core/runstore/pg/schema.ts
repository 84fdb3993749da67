// The PostgreSQL schema: the same tables, columns and indexes as core/store/schema.ts (SQLite), in
// PostgreSQL's types. Times are milliseconds since the epoch (bigint, read back as numbers); flags are
// booleans; JSON columns are text, exactly the redacted JSON the SQLite store holds, so a row reads
// back byte-for-byte the same and audit hashes computed on one backend verify on the other.
import { bigint, boolean, doublePrecision, index, integer, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core"
import { sql } from "drizzle-orm"

const ms = (name: string) => bigint(name, { mode: "number" })

export const runs = pgTable(
  "runs",
  {
    id: text("id").primaryKey(),
    task: text("task").notNull(),
    taskFile: text("task_file").notNull(),
    workdir: text("workdir").notNull(),
    status: text("status").notNull(),
    driver: text("driver").notNull(),
    policyHash: text("policy_hash"),
    pid: integer("pid"),
    host: text("host"),
    batch: text("batch"),
    createdAt: ms("created_at").notNull(),
    updatedAt: ms("updated_at").notNull(),
    finishedAt: ms("finished_at"),
    exitCode: integer("exit_code"),
    message: text("message"),
    options: text("options"),
  },
  (t) => [index("runs_created_idx").on(t.createdAt), index("runs_status_idx").on(t.status)],
)

export const planItems = pgTable(
  "plan_items",
  {
    runId: text("run_id").notNull().references(() => runs.id, { onDelete: "cascade" }),
    id: text("id").notNull(),
    seq: integer("seq").notNull(),
    title: text("title").notNull(),
    state: text("state").notNull(),
    attempts: integer("attempts").notNull().default(0),
    updatedAt: ms("updated_at").notNull(),
    needs: text("needs").notNull().default("[]"),
    continueOnError: boolean("continue_on_error").notNull().default(false),
    depth: integer("depth").notNull().default(0),
    note: text("note"),
    waiting: boolean("waiting").notNull().default(false),
    denied: text("denied"),
  },
  (t) => [primaryKey({ columns: [t.runId, t.id] })],
)

export const calls = pgTable(
  "calls",
  {
    id: text("id").primaryKey(),
    runId: text("run_id").notNull().references(() => runs.id, { onDelete: "cascade" }),
    seq: integer("seq").notNull(),
    itemId: text("item_id"),
    attempt: integer("attempt").notNull().default(1),
    tool: text("tool").notNull(),
    args: text("args").notNull(),
    argsHash: text("args_hash").notNull(),
    decision: text("decision"),
    risk: text("risk"),
    decidedBy: text("decided_by"),
    status: text("status").notNull(),
    startedAt: ms("started_at").notNull(),
    finishedAt: ms("finished_at"),
    durationMs: integer("duration_ms"),
    exitCode: integer("exit_code"),
    pgid: integer("pgid"),
    output: text("output"),
    bytes: bigint("bytes", { mode: "number" }),
    errorCode: text("error_code"),
    errorType: text("error_type"),
    errorMessage: text("error_message"),
  },
  (t) => [uniqueIndex("calls_run_seq_idx").on(t.runId, t.seq), index("calls_status_idx").on(t.runId, t.status)],
)

export const checkpoints = pgTable(
  "checkpoints",
  {
    runId: text("run_id").notNull().references(() => runs.id, { onDelete: "cascade" }),
    seq: integer("seq").notNull(),
    createdAt: ms("created_at").notNull(),
    state: text("state").notNull(),
  },
  (t) => [primaryKey({ columns: [t.runId, t.seq] })],
)

export const events = pgTable(
  "events",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    runId: text("run_id").notNull().references(() => runs.id, { onDelete: "cascade" }),
    ts: ms("ts").notNull(),
    type: text("type").notNull(),
    data: text("data").notNull(),
  },
  (t) => [index("events_run_idx").on(t.runId, t.id)],
)

export const requests = pgTable(
  "requests",
  {
    id: text("id").primaryKey(),
    runId: text("run_id").notNull().references(() => runs.id, { onDelete: "cascade" }),
    callId: text("call_id"),
    itemId: text("item_id"),
    kind: text("kind").notNull(),
    status: text("status").notNull(),
    title: text("title").notNull(),
    detail: text("detail"),
    answer: text("answer"),
    forRun: boolean("for_run").notNull().default(false),
    createdAt: ms("created_at").notNull(),
    settledAt: ms("settled_at"),
    settledBy: text("settled_by"),
  },
  (t) => [index("requests_run_idx").on(t.runId, t.status)],
)

export const grants = pgTable(
  "grants",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    runId: text("run_id").notNull().references(() => runs.id, { onDelete: "cascade" }),
    tool: text("tool").notNull(),
    pattern: text("pattern"),
    source: text("source").notNull(),
    createdAt: ms("created_at").notNull(),
  },
  (t) => [index("grants_run_idx").on(t.runId)],
)

// Ids are assigned by the writer (head + 1) under the head's row lock, never by a sequence: the chain
// needs ids without gaps, and a sequence skips the values of rolled-back transactions.
export const audit = pgTable(
  "audit",
  {
    id: bigint("id", { mode: "number" }).primaryKey(),
    ts: ms("ts").notNull(),
    runId: text("run_id"),
    callId: text("call_id"),
    type: text("type").notNull(),
    actor: text("actor").notNull(),
    tool: text("tool"),
    action: text("action"),
    result: text("result"),
    risk: text("risk"),
    autoApproved: boolean("auto_approved"),
    reason: text("reason"),
    data: text("data"),
    prevHash: text("prev_hash").notNull(),
    hash: text("hash").notNull(),
  },
  (t) => [index("audit_run_idx").on(t.runId, t.id), index("audit_ts_idx").on(t.ts), index("audit_type_idx").on(t.type, t.ts)],
)

// One row (id 1), seeded when the schema is migrated: every append locks it FOR UPDATE, which is what
// serialises chain appends across every connection and machine.
export const auditHead = pgTable("audit_head", {
  id: integer("id").primaryKey(),
  lastId: bigint("last_id", { mode: "number" }).notNull(),
  hash: text("hash").notNull(),
})

// SQLite keys a trusted file by "workspace NUL path" in one column; PostgreSQL text cannot hold a NUL,
// so here the workspace root has its own column (the key is the pair).
export const trust = pgTable(
  "trust",
  {
    workspace: text("workspace").notNull(),
    path: text("path").notNull(),
    hash: text("hash").notNull(),
    trustedAt: ms("trusted_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.workspace, t.path] })],
)

export const snapshots = pgTable(
  "snapshots",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    runId: text("run_id").notNull().references(() => runs.id, { onDelete: "cascade" }),
    callId: text("call_id"),
    step: integer("step").notNull(),
    ref: text("ref").notNull(),
    createdAt: ms("created_at").notNull(),
  },
  (t) => [index("snapshots_run_idx").on(t.runId, t.step)],
)

export const agentMessages = pgTable(
  "agent_messages",
  {
    runId: text("run_id").notNull().references(() => runs.id, { onDelete: "cascade" }),
    seq: integer("seq").notNull(),
    message: text("message").notNull(),
  },
  (t) => [primaryKey({ columns: [t.runId, t.seq] })],
)

export const usage = pgTable(
  "usage",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    runId: text("run_id").notNull().references(() => runs.id, { onDelete: "cascade" }),
    turn: integer("turn").notNull(),
    model: text("model").notNull(),
    inputTokens: bigint("input_tokens", { mode: "number" }).notNull().default(0),
    outputTokens: bigint("output_tokens", { mode: "number" }).notNull().default(0),
    cost: doublePrecision("cost").notNull().default(0),
    createdAt: ms("created_at").notNull().default(sql`(extract(epoch from now()) * 1000)::bigint`),
  },
  (t) => [index("usage_run_idx").on(t.runId)],
)
