// ccode db status|migrate: the schema of the database --db / CCODE_DB names (a SQLite file, or a
// postgres:// URL). A shared PostgreSQL database is migrated only here, when an operator asks.
import { migrateDb, schemaStatusOf } from "../../core/runstore/select.ts"
import type { SchemaStatus } from "../../core/runstore/api.ts"
import { globalArgs, jsonArg } from "../args.ts"
import { command } from "../command.ts"
import { dbTarget } from "../home.ts"

const dbArgs = {
  ...jsonArg,
  ...globalArgs,
  db: { type: "string", description: "database: a file, or postgres://user@host:port/name (env CCODE_DB; default $CCODE_HOME/ccode.db)", valueHint: "path|url" },
} as const

const status = command({
  meta: { name: "status", description: "Show the schema version of the database and the migrations it lacks" },
  examples: ["ccode db status", "ccode db status --db postgres://ccode@db.internal:5432/ccode --json", "CCODE_DB=postgres://ccode@localhost/ccode ccode db status"],
  args: dbArgs,
  async run({ args }) {
    const s = await schemaStatusOf(dbTarget(args.db))
    if (args.json) console.log(JSON.stringify(s))
    else console.log(describe(s))
    return 0
  },
})

const migrate = command({
  meta: { name: "migrate", description: "Apply the migrations the database lacks (one transaction; safe to run twice or from two places at once)" },
  examples: ["ccode db migrate --db postgres://ccode@db.internal:5432/ccode", "CCODE_DB=postgres://ccode@localhost/ccode ccode db migrate --json", "ccode db migrate --db ./ccode.db"],
  args: dbArgs,
  async run({ args }) {
    const { before, after } = await migrateDb(dbTarget(args.db))
    if (args.json) console.log(JSON.stringify({ ...after, migrated: before.pending }))
    else if (!before.pending.length) console.log(`${after.location}: already up to date (schema ${after.applied} of ${after.latest})`)
    else console.log(`${after.location}: applied ${before.pending.length} migration(s) (${before.pending.join(", ")}); schema ${after.applied} of ${after.latest}`)
    return 0
  },
})

function describe(s: SchemaStatus): string {
  const where = `${s.location} (${s.backend}): schema ${s.applied} of ${s.latest}`
  if (s.state === "current") return `${where} — up to date`
  if (s.state === "newer") return `${where} — written by a newer ccode; upgrade ccode`
  const next = s.backend === "postgres" ? "run `ccode db migrate`" : "any ccode command migrates it on open, or `ccode db migrate`"
  return `${where} — ${s.pending.length} migration(s) pending (${s.pending.join(", ")}); ${next}`
}

export default command({
  meta: { name: "db", description: "Show and migrate the database schema" },
  subCommands: { status, migrate },
})
