// `ccode undo`: puts a run's workspace back as it was before the run (or before call N) from the
// run's snapshots, and audits it as a `rollback`. A dry run changes nothing and writes nothing.
import { appendAudit } from "../audit/write.ts"
import type { Redactor } from "../redact/index.ts"
import type { Store } from "../store/open.ts"
import type { RunRow } from "../store/runs.ts"
import { createSnapshotter, type RestoreResult } from "./index.ts"
import { findWorkspace } from "./repo.ts"
import { snapshotBefore, snapshotsOf } from "./rows.ts"

export interface UndoOptions {
  /** CCODE_HOME */
  home: string
  /** back to the state before call N (default: before the run) */
  toStep?: number
  dryRun?: boolean
  /** paths kept out of snapshots (the database) */
  exclude?: string[]
  /** redacts what the rollback audit row records */
  redactor: Redactor
}

export interface UndoResult extends RestoreResult {
  runId: string
  workspace: string
  /** what the workspace was put back to */
  target: string
  ref: string
  step: number
  dryRun: boolean
}

export class UndoError extends Error {
  /** bad input: exit 2 */
  readonly exitCode = 2
  override name = "UsageError"
}

export async function undoRun(store: Store, run: RunRow, opts: UndoOptions): Promise<UndoResult> {
  const rows = snapshotsOf(store, run.id)
  if (!rows.length) {
    throw new UndoError(`run ${run.id} has no snapshots: it changed nothing, or it ran without snapshots; nothing to undo`)
  }
  const chosen = snapshotBefore(rows, opts.toStep)!
  const workspace = findWorkspace(opts.home, run.workdir, chosen.ref)
  if (!workspace) throw new UndoError(`no snapshot ${chosen.ref.slice(0, 12)} of ${run.workdir} or a folder above it under ${opts.home}/snapshots; was CCODE_HOME different for the run, or is its workdir gone?`)
  const target = opts.toStep === undefined || chosen === rows[0] && opts.toStep <= rows[0]!.step ? "before the run" : `before step ${opts.toStep}`
  const snapshotter = createSnapshotter({ workspace, home: opts.home, exclude: opts.exclude })
  const base = { runId: run.id, workspace, target, ref: chosen.ref, step: chosen.step, dryRun: Boolean(opts.dryRun) }
  if (opts.dryRun) return { ...base, ...(await snapshotter.restore(chosen.ref, { dryRun: true })) }
  // the workspace as it is now, so an undo can itself be undone by hand
  const saved = await snapshotter.take(`before undo of ${run.id}`)
  const action = opts.toStep === undefined ? "undo" : `undo --to-step ${opts.toStep}`
  try {
    const result = await snapshotter.restore(chosen.ref)
    audit(store, run.id, opts.redactor, {
      action, result: "success", reason: `restored the workspace to ${target}`,
      data: { workspace, ref: chosen.ref, step: chosen.step, saved_ref: saved, ...result },
    })
    return { ...base, ...result }
  } catch (error) {
    audit(store, run.id, opts.redactor, {
      action, result: "failed", reason: `undo failed: ${(error as Error).message}`,
      data: { workspace, ref: chosen.ref, step: chosen.step, saved_ref: saved },
    })
    throw error
  }
}

function audit(store: Store, runId: string, redactor: Redactor, row: { action: string; result: "success" | "failed"; reason: string; data: unknown }): void {
  store.tx(() =>
    appendAudit(store, {
      runId, type: "rollback", actor: "user", action: row.action, result: row.result,
      reason: redactor.text(row.reason), data: JSON.stringify(redactor.value(row.data)),
    }),
  )
}
