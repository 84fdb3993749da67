// A separate process running `audit verify` over and over while others write: `bun verify-worker.ts DB MS`.
// Prints one line per pass: "ok" or the problem found.
import { verifyStore } from "../../core/audit/verify.ts"
import { openStore } from "../../core/store/open.ts"

const [db, ms] = process.argv.slice(2)
const store = openStore(db!)
const until = Date.now() + Number(ms)
const lines: string[] = []
while (Date.now() < until) {
  const result = verifyStore(store)
  lines.push(result.ok ? "ok" : `broken: ${result.problem!.message}`)
}
store.close()
process.stdout.write(`${lines.join("\n")}\n`)
