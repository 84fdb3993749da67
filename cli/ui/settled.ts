import type { RequestRow } from "../../core/store/requests.ts"
import { out } from "../out.ts"

export function printSettled(rows: RequestRow[], json: boolean): void {
  if (json) {
    out(`${JSON.stringify(rows.map((r) => ({ id: r.id, run: r.runId, kind: r.kind, status: r.status, answer: r.answer })))}\n`)
    return
  }
  for (const r of rows) {
    out(`${r.status} ${r.id} (${r.kind}): ${r.title}`)
    const grant = r.forRun && r.status === "approved" ? grantOf(r.detail) : undefined
    if (grant) out(`  for the rest of the run this also allows: ${grant.join(", ")} (never critical calls)`)
  }
  if (rows[0]) process.stderr.write(`next: ccode resume ${rows[0].runId}\n`)
}

/** The patterns an "allow for this run" of this request grants, as recorded when it was asked. */
function grantOf(detail: string | null): string[] | undefined {
  try {
    const grant = (JSON.parse(detail ?? "{}") as { grant?: unknown }).grant
    return Array.isArray(grant) && grant.length ? grant.map(String) : undefined
  } catch {
    return undefined
  }
}
