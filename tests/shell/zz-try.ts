import { loadParser } from "../../core/shell/index.ts"
import { decideDefault } from "./attacks.ts"
await loadParser()
for (const cmd of (await Bun.stdin.text()).split("\n%%\n").filter(Boolean)) {
  const d = await decideDefault(cmd.trim())
  console.log(JSON.stringify(cmd.trim()), "=>", d.decision, d.risk, d.reason.slice(0, 110))
}
