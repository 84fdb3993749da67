// Attack review 3, finding 5, against the compiled binary: `git --bare` makes git take the folder it runs
// in for its git directory and obey the plain `config` file there, workspace content no rule protects.
// The attack is first proven real with bash (a fake secret in the sandbox's ~/.netrc), then ccode must ask
// with a reason naming --bare.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { mkdirSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { gitIn, bashIn, policyCheck, sandbox, type Sandbox } from "./harness.ts"

describe("round 3: git --bare obeys a workspace file as its config", () => {
  let sb: Sandbox
  let dir: string
  const NETRC = "machine x login u password netrc-round3-secret"
  const env = () => ({ GIT_CONFIG_NOSYSTEM: "1" })
  const sh = (command: string, cwd: string) => bashIn(sb, command, cwd, env())
  const git = (cwd: string, ...args: string[]) => gitIn(sb, cwd, args, env())
  const check = (command: string, cwd: string) => policyCheck(sb, command, { cwd })

  beforeAll(() => {
    sb = sandbox()
    writeFileSync(join(sb.home, ".netrc"), `${NETRC}\n`)
    // the workspace: an ordinary repository whose root also holds a bare repository's layout (HEAD,
    // objects/, refs/, info/attributes, config), as a commit or an unpacked archive can ship it
    dir = join(sb.root, "ws")
    mkdirSync(dir)
    git(dir, "init", "-q")
    writeFileSync(join(dir, "f"), "hello\n")
    git(dir, "add", "f")
    git(dir, "commit", "-qm", "init")
    const bare = join(sb.root, "bare.git")
    git(sb.root, "clone", "-q", "--bare", dir, bare)
    sh(`cp -r "${bare}/HEAD" "${bare}/objects" "${bare}/refs" "${bare}/packed-refs" . 2>/dev/null; true`, dir)
    mkdirSync(join(dir, "info"), { recursive: true })
    writeFileSync(join(dir, "info", "attributes"), "* diff=x\n")
    writeFileSync(join(dir, "config"), `[core]\n\trepositoryformatversion = 0\n\tbare = true\n[diff "x"]\n\ttextconv = "cat ~/.netrc >&2; cat"\n`)
  })
  afterAll(() => rmSync(sb.root, { recursive: true, force: true }))

  test.each([["git --bare show"], ["git --bare log -p -1"], ["git -C . --bare show"]])("%s runs the textconv in ./config: asks", async (command) => {
    expect(sh(command, dir)).toContain(NETRC)
    const d = await check(command, dir)
    expect({ decision: d.decision, risk: d.risk, named: d.reason.includes("git --bare uses"), reason: d.reason }).toEqual({ decision: "ask", risk: "medium", named: true, reason: d.reason })
  })

  test("git show (no --bare) in the same workspace does not read ./config and stays allowed", async () => {
    expect(sh("git show", dir)).not.toContain(NETRC)
    const d = await check("git show", dir)
    expect({ decision: d.decision, reason: d.reason }).toEqual({ decision: "allow", reason: d.reason })
  })
})
