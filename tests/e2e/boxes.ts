// Sandboxes made per test and removed after each one (the live-sandbox e2e files), and the two steps
// that warm a run's live sandbox up: it starts at the second call with the same layout.
import { afterEach } from "bun:test"
import { rmSync } from "node:fs"
import { sandbox, type Sandbox } from "./harness.ts"

export const WARM = ["  - id: one", "    run: 'true'", "  - id: two", "    run: sleep 1"]

/** A `box()` that makes a sandbox removed after the test (call once, at a test file's top level). */
export function boxes(): () => Sandbox {
  const made: string[] = []
  afterEach(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true })
  })
  return () => {
    const sb = sandbox()
    made.push(sb.root)
    return sb
  }
}
