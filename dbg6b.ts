import { loadParser } from "./core/shell/index.ts"
import { decideDefault } from "./tests/shell/attacks.ts"
await loadParser()
for (const c of process.argv.slice(2)) { const d = await decideDefault(c); console.log(c, "=>", d.decision, d.risk, d.reason) }
