// `ccode runs prune`: which runs go (pure), and removing them with their summaries and snapshots,
// then giving the space back (VACUUM). Audit rows are kept: the chain must stay whole.
import { existsSync, rmSync } from "node:fs"
import { join } from "node:path"
import { pruneSnapshots, type SnapshotPrune } from "../snapshot/prune.ts"
import type { PruneCandidate, RunStore } from "../runstore/api.ts"
import type { Store } from "../store/open.ts"
import { TERMINAL } from "../store/runs.ts"
import { mayBeLive } from "./liveness.ts"

export type { PruneCandidate }

export interface PruneChoice {
  /** runs not touched for this long go */
  olderThanMs: number
  /** also runs that could still be resumed (paused, stopped, interrupted, crashed) */
  all: boolean
  now: number
}

/** The runs a prune removes: untouched for long enough, finished (unless `all`), never one at work (here or on another host). Pure but for the liveness check. */
export function chooseRuns(runs: PruneCandidate[], choice: PruneChoice, live: (run: PruneCandidate) => boolean = (run) => mayBeLive(run)): PruneCandidate[] {
  return runs.filter(
    (run) => run.touchedAt <= choice.now - choice.olderThanMs && (choice.all || TERMINAL.includes(run.status)) && !live(run),
  )
}

export interface PruneResult {
  removed: string[]
  snapshots: SnapshotPrune
}

/**
 * Remove the runs (rows, this machine's summaries and the snapshot refs no other run holds, from
 * this machine's shadow repositories), then vacuum. `local`: the SQLite file when that is the store;
 * a shared PostgreSQL database is left to its own vacuuming.
 */
export async function removeRuns(store: RunStore, local: Store | undefined, home: string, ids: string[], ageMs: number): Promise<PruneResult> {
  if (!ids.length) return { removed: [], snapshots: { refs: 0, repos: 0 } }
  const refs = await store.deleteRuns(ids)
  for (const id of ids) removeSummary(home, id)
  const inUse = await store.snapshotRefsInUse(refs)
  const snapshots = await pruneSnapshots(home, refs, (ref) => inUse.has(ref), ageMs)
  if (local && store.backend === "sqlite") local.sqlite.run("VACUUM")
  return { removed: ids, snapshots }
}

export function removeSummary(home: string, runId: string): void {
  const dir = join(home, "runs", runId)
  if (existsSync(dir)) rmSync(dir, { recursive: true, force: true })
}
