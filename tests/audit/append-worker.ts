// A separate process appending audit rows, as a run would: `bun append-worker.ts DB RUN N`.
import { appendAudit } from "../../core/audit/write.ts"
import { openStore } from "../../core/store/open.ts"

const [db, runId, count] = process.argv.slice(2)
const store = openStore(db!)
for (let i = 0; i < Number(count); i++) {
  // one to three rows per transaction, like a call's commit
  const batch = 1 + (i % 3)
  store.tx(() => {
    for (let j = 0; j < batch; j++) appendAudit(store, { runId, callId: `c${i}`, type: "decision", actor: "policy", tool: "shell", result: "approved", data: JSON.stringify({ i, j }) })
  })
}
store.close()
