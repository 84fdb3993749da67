// Test isolation: every test process gets its own HOME, CCODE_HOME and XDG folders, so tests
// never read or write the user's real ones; CI-like, non-interactive, no colour.
// Temp dirs: the process's one root also holds TMPDIR, which os.tmpdir() reads on every call, so
// every mkdtemp of the tests lands inside the root, and the root goes once the last test file is
// done (an afterAll in a preload runs after every file; bun test fires no "exit" event): a test run
// leaves nothing in the real temp dir, however a test ends.
import { afterAll } from "bun:test"
import { mkdirSync, mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { removeTree } from "./tmp"

const root = mkdtempSync(join(tmpdir(), "ccode-test-"))
// a whole run's root can hold tens of thousands of files (scale tests): far longer than a test's timeout
afterAll(() => removeTree(root), 600_000)
process.env.TMPDIR = join(root, "tmp")
mkdirSync(process.env.TMPDIR)
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
