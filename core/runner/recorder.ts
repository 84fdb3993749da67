// Buffers a run's events and audit rows and commits them in one transaction (one CommitUnit) with the
// state rows they describe; only committed events reach the reporter (stdout never shows what a crash
// could lose). Commits go to the store in the order they were made, one at a time: each unit is built
// when commit() is called (the state as it is then), whichever backend stores it and however long it takes.
import type { AuditInput } from "../audit/write.ts"
import type { Redactor } from "../redact/index.ts"
import type { CommitUnit, RunStore } from "../runstore/api.ts"
import type { Reporter, RunEvent, RunEventType } from "./events.ts"

/** The state rows of a step: everything of a CommitUnit but its events and audit rows. */
export type StateWrites = Omit<CommitUnit, "runId" | "events" | "audit">

export class Recorder {
  private events: RunEvent[] = []
  private audits: AuditInput[] = []
  private staged: StateWrites[] = []
  /** the last commit handed to the store: the next one waits for it */
  private tail: Promise<unknown> = Promise.resolve()
  /** commits handed over and not yet settled */
  private queued = 0

  constructor(
    readonly store: RunStore,
    readonly runId: string,
    readonly redactor: Redactor,
    readonly reporter: Reporter,
  ) {}

  /** `own` fields are ccode's own values (its file paths, ids), shown as they are. */
  event(type: RunEventType, fields: Record<string, unknown> = {}, own: Record<string, unknown> = {}): RunEvent {
    const event = { type, ts: new Date().toISOString(), run: this.runId, ...this.redactor.value(fields), ...own } as RunEvent
    this.events.push(event)
    return event
  }

  audit(input: Omit<AuditInput, "runId" | "data"> & { data?: unknown }): void {
    const data = input.data === undefined || input.data === null ? null : JSON.stringify(this.redactor.value(input.data))
    this.audits.push({ ...input, runId: this.runId, reason: input.reason ? this.redactor.text(input.reason) : input.reason, data })
  }

  /** State rows to go with the next commit (a call's row settled on resume, a grant given at the prompt). */
  stage(writes: StateWrites): void {
    this.staged.push(writes)
  }

  /**
   * A write that cannot wait for the step's commit (a running tool's process group, its exit code):
   * stored in order with the commits, on its own. Its failure is reported, not thrown: the step's
   * own commit that follows tells whether the store still works.
   */
  write(writes: StateWrites): void {
    this.enqueue({ runId: this.runId, ...writes }).catch((error) =>
      this.reporter.output(this.runId, "", `warning: could not store ${Object.keys(writes).join(", ")}: ${(error as Error).message}\n`),
    )
  }

  /**
   * Commit buffered events, audit rows and staged state rows, with `writes`, in one transaction;
   * writes no checkpoint unless `writes` has one (commitWithCheckpoint in call.ts adds it).
   */
  async commit(writes: StateWrites = {}): Promise<void> {
    const events = this.events
    // a session's end is the last thing it records, whatever was buffered after it
    const audits = [...this.audits.filter((a) => a.type !== "session_end"), ...this.audits.filter((a) => a.type === "session_end")]
    const unit = merge(this.runId, [...this.staged, writes])
    unit.events = events.map((event) => ({ ts: Date.parse(event.ts), type: event.type, data: JSON.stringify(event) }))
    unit.audit = audits
    this.events = []
    this.audits = []
    this.staged = []
    try {
      await this.enqueue(unit)
    } catch (error) {
      // keep them for the next attempt rather than dropping audit rows
      this.events = [...events, ...this.events]
      this.audits = [...audits, ...this.audits]
      throw error
    }
    for (const event of events) this.reporter.event(event)
  }

  /** Hand a unit to the store after the ones before it; with none queued, at once (SQLite then writes before this returns). */
  private enqueue(unit: CommitUnit): Promise<unknown> {
    const run = () => this.store.commit(unit)
    const done = (this.queued === 0 ? run() : this.tail.catch(() => undefined).then(run)).finally(() => this.queued--)
    this.queued++
    this.tail = done
    return done
  }
}

/** Several StateWrites as one unit: lists joined in order, the run patches merged, the last checkpoint kept. */
export function merge(runId: string, parts: StateWrites[]): CommitUnit {
  const unit: CommitUnit = { runId }
  const lists = ["calls", "callPatches", "requests", "grants", "settlements", "messages", "usage", "snapshots"] as const
  for (const part of parts) {
    if (part.newRun) unit.newRun = part.newRun
    if (part.run) unit.run = { ...unit.run, ...part.run }
    if (part.checkpoint) unit.checkpoint = part.checkpoint
    if (part.plan) {
      const before = unit.plan
      unit.plan = before
        ? { items: [...before.items, ...part.plan.items], positions: [...positionsOf(before), ...positionsOf(part.plan)] }
        : part.plan
    }
    for (const key of lists) {
      const more = part[key] as unknown[] | undefined
      if (more?.length) (unit as unknown as Record<string, unknown[]>)[key] = [...((unit[key] as unknown[] | undefined) ?? []), ...more]
    }
  }
  return unit
}

function positionsOf(plan: NonNullable<CommitUnit["plan"]>): number[] {
  return plan.positions ?? plan.items.map((_, i) => i)
}
