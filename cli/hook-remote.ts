// The hook on a fleet's shared PostgreSQL store: trust comes from it and the decision's audit row goes
// to it (one transaction, chained like every other row). Loaded only when --db / CCODE_DB names one.
import type { AuditInput } from "../core/audit/write.ts"
import type { IsTrusted } from "../core/policy/index.ts"
import { openRunStore } from "../core/runstore/select.ts"
import { readTrust } from "../core/runstore/trust.ts"

export interface RemoteHookStore {
  trustIn(workspace: string): Promise<IsTrusted>
  /** writes the row and closes the store */
  append(row: AuditInput): Promise<void>
}

export async function openRemote(target: string): Promise<RemoteHookStore> {
  const store = await openRunStore(target)
  return {
    async trustIn(workspace) {
      return (await readTrust(store)).in(workspace)
    },
    async append(row) {
      try {
        await store.appendAudit([row])
      } finally {
        await store.close()
      }
    },
  }
}
