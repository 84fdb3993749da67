// Other accounts' credentials are hidden too: a sandbox running as root, or with a HOME that is not the
// account's, would otherwise read /root/.netrc or /home/bob/.ssh. The caller's own home keeps its list.
import { describe, expect, test } from "bun:test"
import { statSync } from "node:fs"
import { otherHomesHidden } from "../../core/sandbox/defaults.ts"
import { existingHomes } from "../../core/base/homes.ts"

describe("credentials in other homes", () => {
  test("every home on the machine but the caller's gets the home-relative locations", () => {
    const homes = existingHomes()
    for (const h of homes) expect(statSync(h).isDirectory()).toBe(true)
    const hidden = otherHomesHidden("/nonexistent-home-of-the-caller")
    for (const h of homes.filter((x) => x !== "/")) {
      expect(hidden).toContain(`${h}/.netrc`)
      expect(hidden).toContain(`${h}/.ssh`)
    }
    // the build tools' settings stay readable there as in the caller's home
    expect(hidden.some((p) => p.endsWith("/.m2/settings.xml"))).toBe(false)
  })

  test("the caller's own home is not listed twice", () => {
    const root = statSync("/root", { throwIfNoEntry: false })?.isDirectory()
    if (!root) return
    expect(otherHomesHidden("/root").some((p) => p.startsWith("/root/"))).toBe(false)
    expect(otherHomesHidden("/tmp/elsewhere")).toContain("/root/.aws")
  })
})
