// Review 10: bash joins a backslash-newline that follows `$` (`"$\<newline>(cmd)"` runs cmd); the parser
// took the rest for text. Proven with bash in the sandbox, then the compiled binary must ask.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { bashIn, policyCheck, sandbox, type Sandbox } from "./harness.ts"

describe("round 10: a backslash-newline after $", () => {
  let sb: Sandbox
  beforeAll(() => {
    sb = sandbox()
    writeFileSync(join(sb.home, ".netrc"), "machine x login y password FAKESECRET-netrc\n")
  })
  afterAll(() => rmSync(sb.root, { recursive: true, force: true }))

  test.each(['echo "$\\\n(cat ~/.netrc)"', "echo $\\\n(cat ~/.netrc)", 'x="$\\\n{y:-$(cat ~/.netrc)}"; echo "$x"'])("bash runs the hidden command in %j; ccode asks critical", async (command) => {
    expect(bashIn(sb, command, sb.work)).toContain("FAKESECRET-netrc")
    const d = await policyCheck(sb, command)
    expect([d.decision, d.risk]).toEqual(["ask", "critical"])
    expect(d.reason).toContain("a line continuation after $")
  })

  test("a backslash-newline elsewhere stays allowed", async () => {
    expect(bashIn(sb, 'echo "one \\\ntwo"', sb.work)).toBe("one two\n")
    expect((await policyCheck(sb, 'echo "one \\\ntwo"')).decision).toBe("allow")
  })
})
