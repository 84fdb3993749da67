// Example plugin: SQL on a SQLite file in the workspace. Reads (SELECT, WITH ... SELECT, EXPLAIN,
// PRAGMA name) are low risk and run on a read-only connection, so a statement the classifier got
// wrong still cannot write; data changes are medium; schema changes and DELETE without WHERE high.
import { Database } from "bun:sqlite"
import { defineTool, z } from "ccode/plugin"

type Kind = "read" | "write" | "schema"
const RISK = { read: "low", write: "medium", schema: "high" } as const
const MAX_ROWS = 200

export default defineTool({
  name: "sqlite_query",
  description: "Run SQL on a SQLite database file in the workspace; returns rows (reads) or the number of changed rows",
  args: z.object({
    database: z.string().describe("path of the .sqlite/.db file"),
    sql: z.string().min(1),
    params: z.array(z.union([z.string(), z.number(), z.boolean(), z.null()])).optional().describe("values for ? placeholders"),
  }),
  risk: ({ sql }) => RISK[statementKind(sql)],
  // the database file is what path rules (`path: "prod/**", access: write`) and confinement judge
  effects: ["read", "write"],
  paths: ({ database, sql }) => [{ path: database, access: statementKind(sql) === "read" ? "read" : "write" }],
  timeout: "30s",
  async run({ database, sql, params }, ctx) {
    const kind = statementKind(sql)
    const file = ctx.paths.resolve(database, kind === "read" ? "read" : "write")
    const statements = splitStatements(sql)
    if (statements.length > 1 && params?.length) {
      return { error: { code: "INVALID_PARAM", type: "param", message: "params work with one statement at a time" } }
    }
    const db = kind === "read" ? new Database(file, { readonly: true }) : new Database(file, { create: true })
    try {
      if (statements.length > 1) {
        db.run(sql)
        const changes = db.query<{ n: number }, []>("SELECT total_changes() AS n").get()?.n ?? 0
        return { text: `${statements.length} statements, ${changes} rows changed`, data: { changes } }
      }
      const query = db.query(sql)
      const rows = query.all(...((params ?? []) as never[])) as Record<string, unknown>[]
      if (kind !== "read" && !rows.length) {
        const changes = db.query<{ n: number }, []>("SELECT changes() AS n").get()?.n ?? 0
        return { text: `${changes} rows changed`, data: { changes } }
      }
      return { text: renderRows(query.columnNames, rows), data: { columns: query.columnNames, rows: rows.slice(0, MAX_ROWS), count: rows.length } }
    } finally {
      db.close()
    }
  },
})

/** The riskiest kind among the statements of `sql`. */
function statementKind(sql: string): Kind {
  const kinds = splitStatements(sql).map(kindOf)
  if (kinds.includes("schema")) return "schema"
  if (kinds.includes("write")) return "write"
  return kinds.length ? "read" : "schema" // nothing recognisable: assume the worst
}

function kindOf(statement: string): Kind {
  const words: string[] = statement.toUpperCase().match(/[A-Z_]+/g) ?? []
  const first = words[0] ?? ""
  if (first === "SELECT" || first === "VALUES" || first === "EXPLAIN") return "read"
  if (first === "WITH") return words.some((w) => ["INSERT", "UPDATE", "DELETE", "REPLACE"].includes(w)) ? "write" : "read"
  if (first === "PRAGMA") return /[=(]/.test(statement) ? "schema" : "read"
  if (first === "DELETE") return words.includes("WHERE") ? "write" : "schema" // DELETE without WHERE empties the table
  if (["INSERT", "UPDATE", "REPLACE", "BEGIN", "COMMIT", "END", "ROLLBACK", "SAVEPOINT", "RELEASE"].includes(first)) return "write"
  return "schema" // CREATE, ALTER, DROP, ATTACH, DETACH, VACUUM, REINDEX, ANALYZE, anything else
}

// Statements with comments and quoted text blanked out, so `';'` or `-- DROP` inside them count for nothing.
function splitStatements(sql: string): string[] {
  const blanked = sql.replace(/--[^\n]*|\/\*[\s\S]*?(\*\/|$)|'(?:[^']|'')*'?|"(?:[^"]|"")*"?|`[^`]*`?|\[[^\]]*\]?/g, (m) => (m.startsWith("'") ? "''" : " "))
  return blanked.split(";").map((s) => s.trim()).filter(Boolean)
}

function renderRows(columns: string[], rows: Record<string, unknown>[]): string {
  const shown = rows.slice(0, MAX_ROWS).map((row) => columns.map((c) => cell(row[c])).join("\t"))
  const more = rows.length > MAX_ROWS ? `\n[... ${rows.length - MAX_ROWS} more rows]` : ""
  return [columns.join("\t"), ...shown].join("\n") + more + `\n(${rows.length} rows)`
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return "NULL"
  if (value instanceof Uint8Array) return `<${value.length} bytes>`
  return String(value).replace(/\s+/g, " ")
}
