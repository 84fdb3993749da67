// Test isolation: every test process gets its own HOME, CCODE_HOME and XDG folders, so tests
// never read or write the user's real ones; CI-like, non-interactive, no colour.
import { mkdirSync, mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

const root = mkdtempSync(join(tmpdir(), "ccode-test-"))
process.env.HOME = join(root, "home")
process.env.CCODE_HOME = join(root, "ccode-home")
process.env.XDG_CONFIG_HOME = join(root, "config")
process.env.XDG_DATA_HOME = join(root, "data")
process.env.XDG_CACHE_HOME = join(root, "cache")
mkdirSync(process.env.HOME, { recursive: true })
process.env.NO_COLOR = "1"
process.env.CI = "true"
delete process.env.CCODE_DB
for (const key of Object.keys(process.env)) if (key.startsWith("CCODE_") && !["CCODE_HOME", "CCODE_BIN"].includes(key)) delete process.env[key]
