import type { RunStore } from "../../core/runstore/api.ts"
import type { RequestRow } from "../../core/store/requests.ts"
import { out } from "../out.ts"

export async function printSettled(store: RunStore, rows: RequestRow[], json: boolean): Promise<void> {
  if (json) {
    out(`${JSON.stringify(rows.map((r) => ({ id: r.id, run: r.runId, kind: r.kind, status: r.status, answer: r.answer })))}\n`)
    return
  }
  for (const r of rows) {
    out(`${r.status} ${r.id} (${r.kind}): ${r.title}`)
    const grant = r.forRun && r.status === "approved" ? grantOf(r.detail) : undefined
    if (grant) out(`  for the rest of the run this also allows: ${grant.join(", ")} (never critical calls)`)
  }
  if (!rows[0]) return
  // a `ccode mcp` session is still serving: its client makes the call again, nothing is resumed
  const served = (await store.findRun(rows[0].runId)).driver === "mcp"
  if (!served) return void process.stderr.write(`next: ccode resume ${rows[0].runId}\n`)
  const outcome = rows[0].status === "denied" ? "it is refused with your answer" : "it runs"
  process.stderr.write(`next: the MCP client makes the same call again and ${outcome} (run ${rows[0].runId} is a \`ccode mcp\` session; no resume needed)\n`)
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
