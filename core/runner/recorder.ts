// Buffers a run's events and audit rows and commits them in one transaction with the state
// they describe; only committed events reach the reporter (stdout never shows what a crash could lose).
import { appendAuditRows, type AuditInput } from "../audit/write.ts"
import type { Redactor } from "../redact/index.ts"
import type { Store } from "../store/open.ts"
import type { Reporter, RunEvent, RunEventType } from "./events.ts"

export class Recorder {
  private events: RunEvent[] = []
  private audits: AuditInput[] = []

  constructor(
    readonly store: Store,
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

  /** Commit buffered events and audit rows, together with `write` (state rows), in one transaction; writes no checkpoint (commitWithCheckpoint in call.ts adds one). */
  commit(write?: () => void): void {
    const events = this.events
    // a session's end is the last thing it records, whatever was buffered after it
    const audits = [...this.audits.filter((a) => a.type !== "session_end"), ...this.audits.filter((a) => a.type === "session_end")]
    this.events = []
    this.audits = []
    try {
      this.store.tx(() => {
        write?.()
        const insert = this.store.sqlite.query("INSERT INTO events (run_id, ts, type, data) VALUES (?, ?, ?, ?)")
        for (const event of events) insert.run(this.runId, Date.parse(event.ts), event.type, JSON.stringify(event))
        appendAuditRows(this.store, audits)
      })
    } catch (error) {
      // keep them for the next attempt rather than dropping audit rows
      this.events = [...events, ...this.events]
      this.audits = [...audits, ...this.audits]
      throw error
    }
    for (const event of events) this.reporter.event(event)
  }
}
