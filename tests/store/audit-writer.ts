// One of the concurrent audit writers of the conformance suite and the store bench: opens the store
// named by argv[2] as its own process (as if on its own machine), appends argv[3] rows one transaction
// each, tagged argv[4]; with argv[5] (epoch ms) it waits until then so every writer starts at once.
// Prints when it finished.
import { openRunStore } from "../../core/store/select.ts"

const [target, count, tag, startAt] = process.argv.slice(2)
const store = await openRunStore(target!)
if (startAt) await Bun.sleep(Math.max(0, Number(startAt) - Date.now()))
for (let i = 0; i < Number(count); i++) {
  await store.appendAudit([{ type: "tool_call", actor: "agent", tool: "shell", action: `${tag} ${i}`, result: "success", reason: tag, data: JSON.stringify({ i }) }])
}
console.log(JSON.stringify({ tag, rows: Number(count), finishedAt: Date.now() }))
await store.close()
