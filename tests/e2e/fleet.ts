// A fleet on one PostgreSQL database in e2e tests: each "machine" is a CCODE_HOME of its own (and a
// HOME), all pointed at the same database by CCODE_DB.
import { mkdirSync } from "node:fs"
import { join } from "node:path"
import type { Sandbox } from "./harness.ts"

/** The environment of one machine of the fleet: its own CCODE_HOME and HOME, the shared database. */
export function machine(sb: Sandbox, name: string, url: string): Record<string, string> {
  const home = join(sb.root, `machine-${name}`)
  mkdirSync(join(home, "user"), { recursive: true })
  return { CCODE_HOME: join(home, "ccode"), HOME: join(home, "user"), CCODE_DB: url }
}
