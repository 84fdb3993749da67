// `ccode runs prune`: which runs go (pure), and removing them with their summaries and snapshots,
// then giving the space back (VACUUM). Audit rows are kept: the chain must stay whole.
import { existsSync, rmSync } from "node:fs"
import { join } from "node:path"
import { pruneSnapshots, type SnapshotPrune } from "../snapshot/prune.ts"
import type { Store } from "../store/open.ts"
import { TERMINAL, type RunStatus } from "../store/runs.ts"
import { runIsLive } from "./liveness.ts"

export interface PruneCandidate {
  id: string
  task: string
  status: RunStatus
  pid: number | null
  /** last time anything of the run changed (its row or a checkpoint) */
  touchedAt: number
}

export interface PruneChoice {
  /** runs not touched for this long go */
  olderThanMs: number
  /** also runs that could still be resumed (paused, stopped, interrupted, crashed) */
  all: boolean
  now: number
}

/** The runs a prune removes: untouched for long enough, finished (unless `all`), never one at work. Pure but for the liveness check. */
export function chooseRuns(runs: PruneCandidate[], choice: PruneChoice, live: (run: PruneCandidate) => boolean = runIsLive): PruneCandidate[] {
  return runs.filter(
    (run) => run.touchedAt <= choice.now - choice.olderThanMs && (choice.all || TERMINAL.includes(run.status)) && !live(run),
  )
}

export function pruneCandidates(store: Store): PruneCandidate[] {
  return store.sqlite
    .query(
      `SELECT r.id, r.task, r.status, r.pid,
              max(r.updated_at, coalesce((SELECT max(c.created_at) FROM checkpoints c WHERE c.run_id = r.id), 0)) AS touchedAt
       FROM runs r ORDER BY r.created_at`,
    )
    .all() as PruneCandidate[]
}

export interface PruneResult {
  removed: string[]
  snapshots: SnapshotPrune
}

/** Remove the runs (rows, summaries, snapshot refs), then vacuum. */
export async function removeRuns(store: Store, home: string, ids: string[], ageMs: number): Promise<PruneResult> {
  if (!ids.length) return { removed: [], snapshots: { refs: 0, repos: 0 } }
  const placeholders = ids.map(() => "?").join(", ")
  const refs = (store.sqlite.query(`SELECT DISTINCT ref FROM snapshots WHERE run_id IN (${placeholders})`).all(...ids) as { ref: string }[]).map((r) => r.ref)
  store.tx(() => store.sqlite.query(`DELETE FROM runs WHERE id IN (${placeholders})`).run(...ids))
  for (const id of ids) removeSummary(home, id)
  const stillUsed = store.sqlite.query("SELECT 1 FROM snapshots WHERE ref = ? LIMIT 1")
  const snapshots = await pruneSnapshots(home, refs, (ref) => stillUsed.get(ref) !== null, ageMs)
  store.sqlite.run("VACUUM")
  return { removed: ids, snapshots }
}

export function removeSummary(home: string, runId: string): void {
  const dir = join(home, "runs", runId)
  if (existsSync(dir)) rmSync(dir, { recursive: true, force: true })
}
