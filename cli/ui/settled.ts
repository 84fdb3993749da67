import type { RequestRow } from "../../core/store/requests.ts"
import { out } from "../out.ts"

export function printSettled(rows: RequestRow[], json: boolean): void {
  if (json) {
    out(`${JSON.stringify(rows.map((r) => ({ id: r.id, run: r.runId, kind: r.kind, status: r.status, answer: r.answer })))}\n`)
    return
  }
  for (const r of rows) out(`${r.status} ${r.id} (${r.kind}): ${r.title}`)
  if (rows[0]) process.stderr.write(`next: ccode resume ${rows[0].runId}\n`)
}
