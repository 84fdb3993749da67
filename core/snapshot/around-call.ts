// Wires snapshots into the run loop: the run's first snapshot before its first call that may change
// the workspace, and one after every such call that did. A failed snapshot is recorded and warned
// about, never fatal to the run (undo then reaches back only as far as the last good snapshot).
import type { Snapshotter } from "./index.ts"
import type { SnapshotLog } from "./rows.ts"

export interface SnapshotCall {
  callId: string
  /** the call's seq in its run */
  seq: number
  tool: string
}

export interface CallSnapshots {
  readonly snapshotter: Snapshotter
  /** set by a run that keeps the shadow index current: stages what changed before the first snapshot */
  sync?: () => Promise<void>
  /** before a call runs: the run's first snapshot, if it has none yet and the call may write */
  before(call: SnapshotCall): Promise<void>
  /** after a call ran: a new snapshot when the workspace changed */
  after(call: SnapshotCall): Promise<void>
}

export interface CallSnapshotsOptions {
  /** where the run's snapshot rows are recorded (this machine's SQLite file, or with the run's steps) */
  log: SnapshotLog
  runId: string
  snapshotter: Snapshotter
  /** does this tool change nothing (its declared effects are reads only)? Others are snapshotted around */
  readOnly: (tool: string) => boolean
  /** told when a snapshot fails */
  warn?: (message: string) => void
}

export function createCallSnapshots(opts: CallSnapshotsOptions): CallSnapshots {
  const { log, runId, snapshotter } = opts
  // on resume the run's snapshots so far are recorded: read once, when first needed
  let lastRef: string | undefined
  let loaded = false
  const last = async () => {
    if (!loaded) lastRef = await log.lastRef(runId)
    loaded = true
    return lastRef
  }
  const take = async (call: SnapshotCall, step: number, label: string) => {
    try {
      const ref = await snapshotter.take(`${runId} ${label}`)
      if (ref === lastRef) return
      await log.record({ runId, callId: call.callId, step, ref }, label)
      lastRef = ref
    } catch (error) {
      const message = `snapshot ${label} failed; \`ccode undo ${runId}\` cannot go back past it: ${(error as Error).message}`
      opts.warn?.(message)
      await log.failed({ runId, callId: call.callId }, message)
    }
  }
  const snapshots: CallSnapshots = {
    snapshotter,
    async before(call) {
      if ((await last()) || opts.readOnly(call.tool)) return
      // a failed sync leaves the index as it was; the snapshot below reports its own failure
      await snapshots.sync?.().catch(() => undefined)
      await take(call, call.seq, `before call ${call.seq} (${call.tool})`)
    },
    async after(call) {
      if (!(await last()) || opts.readOnly(call.tool)) return
      await take(call, call.seq + 1, `after call ${call.seq} (${call.tool})`)
    },
  }
  return snapshots
}

/** Run a call between the snapshots' before and after (after runs even when the call throws). */
export async function snapshotAround<T>(snapshots: CallSnapshots | undefined, call: SnapshotCall, run: () => Promise<T>): Promise<T> {
  if (!snapshots) return run()
  await snapshots.before(call)
  try {
    return await run()
  } finally {
    await snapshots.after(call)
  }
}
