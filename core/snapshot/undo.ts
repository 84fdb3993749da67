// `ccode undo`: puts back what a run changed (or changed from call N on) from the run's snapshots,
// and nothing else: a file changed again after the run is reported and left alone unless forced.
// The undo is itself snapshotted, so `--redo` brings the run's changes back. Audited as `rollback`.
// A dry run changes nothing and writes nothing. The snapshots are in this machine's shadow repository
// (never shared); their rows are read from the run's store, SQLite or PostgreSQL.
import { hostname } from "node:os"
import type { Redactor } from "../redact/index.ts"
import type { ChainedRow } from "../audit/chain.ts"
import type { AuditFilter } from "../audit/filter.ts"
import type { AuditInput } from "../audit/write.ts"
import type { CallRow } from "../store/calls.ts"
import type { RunRow } from "../store/runs.ts"
import { commitsOfRun, type RunCommit } from "./commits.ts"
import { createSnapshotter, type RestoreResult } from "./index.ts"
import { findWorkspace, holdsSnapshot } from "./repo.ts"
import { snapshotBefore, type SnapshotRow } from "./rows.ts"

export interface UndoOptions {
  /** CCODE_HOME */
  home: string
  /** back to the state before call N (default: before the run) */
  toStep?: number
  dryRun?: boolean
  /** also put back files that were changed again after the run */
  force?: boolean
  /** bring back what the last undo of this run took away */
  redo?: boolean
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
  /** files the run (or the undo, for a redo) changed that were changed again since: left alone unless forced */
  changedSince: string[]
  forced: boolean
  /** commits made in the workspace's repository while the run worked: undo does not revert them */
  commits: RunCommit[]
  /** the git command that would revert those commits */
  revert: string | null
}

/** What undo reads and writes of the run's store (a RunStore, on either backend, is one). */
export interface UndoStore {
  snapshotsOf(runId: string): Promise<SnapshotRow[]>
  callsOf(runId: string): Promise<CallRow[]>
  queryAudit(filter: AuditFilter): Promise<ChainedRow[]>
  appendAudit(rows: AuditInput[]): Promise<number[]>
}

export class UndoError extends Error {
  /** bad input: exit 2 */
  readonly exitCode = 2
  override name = "UsageError"
}

export async function undoRun(store: UndoStore, run: RunRow, opts: UndoOptions): Promise<UndoResult> {
  if (opts.redo) return redoRun(store, run, opts)
  const rows = await store.snapshotsOf(run.id)
  if (!rows.length) {
    throw new UndoError(`run ${run.id} has no snapshots: it changed nothing, or it ran without snapshots; nothing to undo`)
  }
  const chosen = snapshotBefore(rows, opts.toStep)!
  const last = rows.at(-1)!
  const workspace = findWorkspace(opts.home, run.workdir, chosen.ref)
  if (!workspace || !holdsSnapshot(opts.home, workspace, last.ref)) throw notHere(run, workspace ? last.ref : chosen.ref, opts.home)
  const target = opts.toStep === undefined || chosen === rows[0] && opts.toStep <= rows[0]!.step ? "before the run" : `before step ${opts.toStep}`
  const snapshotter = createSnapshotter({ workspace, home: opts.home, exclude: opts.exclude })
  // what the run changed: its snapshot before the chosen point against its last one
  const byRun = chosen.ref === last.ref ? [] : await snapshotter.changedBetween(chosen.ref, last.ref)
  const since = new Set(await snapshotter.changedSince(last.ref))
  const changedSince = byRun.filter((p) => since.has(p))
  const only = new Set(opts.force ? byRun : byRun.filter((p) => !since.has(p)))
  const commits = await commitsOfRun(workspace, await store.callsOf(run.id), { fromStep: chosen.step, from: chosen.createdAt, to: run.finishedAt ?? run.updatedAt })
  const base = {
    runId: run.id, workspace, target, ref: chosen.ref, step: chosen.step, dryRun: Boolean(opts.dryRun), changedSince,
    forced: Boolean(opts.force), commits, revert: commits.length ? `git revert --no-edit ${commits.map((c) => c.hash.slice(0, 12)).join(" ")}` : null,
  }
  if (opts.dryRun) return { ...base, ...(await snapshotter.restore(chosen.ref, { dryRun: true, only })) }
  // the workspace as it is now: `ccode undo --redo` restores from it
  const saved = await snapshotter.take(`before undo of ${run.id}`)
  const action = opts.toStep === undefined ? "undo" : `undo --to-step ${opts.toStep}`
  try {
    const result = await snapshotter.restore(chosen.ref, { only })
    const after = await snapshotter.take(`after undo of ${run.id}`)
    await audit(store, run.id, opts.redactor, {
      action, result: "success", reason: `restored the files run ${run.id} changed to ${target}${changedSince.length ? `; ${opts.force ? "forced over" : "left alone"} ${changedSince.length} changed since` : ""}`,
      data: { workspace, ref: chosen.ref, step: chosen.step, saved_ref: saved, after_ref: after, changed_since: changedSince, forced: base.forced, ...result },
    })
    return { ...base, ...result }
  } catch (error) {
    await audit(store, run.id, opts.redactor, {
      action, result: "failed", reason: `undo failed: ${(error as Error).message}`,
      data: { workspace, ref: chosen.ref, step: chosen.step, saved_ref: saved },
    })
    throw error
  }
}

/** Put back what the last undo of the run took away, leaving what changed since the undo alone. */
async function redoRun(store: UndoStore, run: RunRow, opts: UndoOptions): Promise<UndoResult> {
  const rollbacks = await store.queryAudit({ runs: [run.id], types: ["rollback"] })
  const row = rollbacks.findLast((r) => r.action?.startsWith("undo") && r.result === "success" && r.data)
  const undone = row ? (JSON.parse(row.data!) as { saved_ref?: string; after_ref?: string } & Partial<RestoreResult>) : undefined
  if (!undone?.saved_ref || !undone.after_ref) throw new UndoError(`run ${run.id} has no undo to redo (see \`ccode audit --run ${run.id} --type rollback\`)`)
  const workspace = findWorkspace(opts.home, run.workdir, undone.saved_ref)
  if (!workspace) throw new UndoError(`the snapshot taken before the undo of ${run.id} is not in ${opts.home}/snapshots on this machine: the undo was made elsewhere (redo it there), or the snapshot is gone`)
  const snapshotter = createSnapshotter({ workspace, home: opts.home, exclude: opts.exclude })
  const touched = [...(undone.restored ?? []), ...(undone.removed ?? []), ...(undone.modified ?? [])]
  const since = new Set(await snapshotter.changedSince(undone.after_ref))
  const changedSince = touched.filter((p) => since.has(p))
  const only = new Set(opts.force ? touched : touched.filter((p) => !since.has(p)))
  const base = {
    runId: run.id, workspace, target: "as it was before the undo", ref: undone.saved_ref, step: 0, dryRun: Boolean(opts.dryRun),
    changedSince, forced: Boolean(opts.force), commits: [], revert: null,
  }
  if (opts.dryRun) return { ...base, ...(await snapshotter.restore(undone.saved_ref, { dryRun: true, only })) }
  const result = await snapshotter.restore(undone.saved_ref, { only })
  await audit(store, run.id, opts.redactor, { action: "redo", result: "success", reason: `brought back what the undo of ${run.id} took away`, data: { workspace, ref: undone.saved_ref, changed_since: changedSince, ...result } })
  return { ...base, ...result }
}

async function audit(store: UndoStore, runId: string, redactor: Redactor, row: { action: string; result: "success" | "failed"; reason: string; data: unknown }): Promise<void> {
  await store.appendAudit([{
    runId, type: "rollback", actor: "user", action: row.action, result: row.result,
    reason: redactor.text(row.reason), data: JSON.stringify(redactor.value(row.data)),
  }])
}

/**
 * The run's snapshots are not (all) in this machine's shadow repositories: snapshots stay on the
 * machine, and under the CCODE_HOME, that took them (a shared store holds only their refs).
 */
function notHere(run: RunRow, ref: string, home: string): UndoError {
  const elsewhere = run.host && run.host !== hostname() ? `; the run last ran on host ${run.host}: run \`ccode undo ${run.id}\` there, with the CCODE_HOME it ran with` : "; was CCODE_HOME different for the run, or is its workdir gone?"
  return new UndoError(`run ${run.id}'s snapshot ${ref.slice(0, 12)} of ${run.workdir} is not on this machine (not under ${home}/snapshots): snapshots stay on the machine that took them${elsewhere}`)
}
