// One of the concurrent audit writers of the conformance suite and the store bench: opens the store
// named by argv[2] as its own process (as if on its own machine), appends argv[3] rows tagged argv[4],
// argv[6] rows per transaction (default 1); with argv[5] (epoch ms, or 0) it waits until then so every
// writer starts at once. Prints when it finished.
import { openRunStore } from "../../core/runstore/select.ts"

const [target, count, tag, startAt, perTx = "1"] = process.argv.slice(2)
const store = await openRunStore(target!)
if (Number(startAt)) await Bun.sleep(Math.max(0, Number(startAt) - Date.now()))
for (let i = 0; i < Number(count); i += Number(perTx)) {
  const rows = Array.from({ length: Math.min(Number(perTx), Number(count) - i) }, (_, j) => i + j)
  await store.appendAudit(rows.map((n) => ({ type: "tool_call", actor: "agent", tool: "shell", action: `${tag} ${n}`, result: "success", reason: tag, data: JSON.stringify({ i: n }) })))
}
console.log(JSON.stringify({ tag, rows: Number(count), finishedAt: Date.now() }))
await store.close()
