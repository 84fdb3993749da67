// Round 12: the words xargs adds at run time. Without -0/-d xargs removes quotes and backslashes and
// splits at blanks and newlines (-n1, -L1, -I{} hand each item alone), and git lists names that are not
// on disk: each form below is proven in bash to print a fake secret (the home's .netrc, the workspace
// .env), then the compiled binary must ask and name the cause. The sound forms stay allowed.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { mkdirSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { bashIn, gitIn, policyCheck, sandbox, type Sandbox } from "./harness.ts"

describe("round 12: words xargs adds at run time", () => {
  let sb: Sandbox
  // one folder per trap: [folder, its trap file's name]
  const traps: Record<string, string> = {
    quoted: "'--files0-from=.env'",
    newline: "x\n--files0-from=.env\ny",
  }
  beforeAll(() => {
    sb = sandbox()
    writeFileSync(join(sb.home, ".netrc"), "machine x login u password FAKESECRET-netrc\n")
    for (const [dir, name] of Object.entries(traps)) {
      mkdirSync(join(sb.work, dir))
      writeFileSync(join(sb.work, dir, ".env"), `K=FAKESECRET-${dir}\n`)
      writeFileSync(join(sb.work, dir, name), "")
    }
    mkdirSync(join(sb.work, "deep", "sub"), { recursive: true })
    writeFileSync(join(sb.work, "deep", ".env"), "K=FAKESECRET-deep\n")
    writeFileSync(join(sb.work, "deep", "sub", "--files0-from=.env"), "")
    // history: a file named --files0-from=.env added, then removed (the .env itself is ignored)
    const repo = join(sb.work, "repo")
    mkdirSync(repo)
    gitIn(sb, repo, ["init", "-q"])
    writeFileSync(join(repo, ".gitignore"), ".env\n")
    writeFileSync(join(repo, ".env"), "K=FAKESECRET-repo\n")
    writeFileSync(join(repo, "--files0-from=.env"), "")
    gitIn(sb, repo, ["add", "--", ".gitignore", "./--files0-from=.env"])
    gitIn(sb, repo, ["commit", "-qm", "a"])
    gitIn(sb, repo, ["rm", "-q", "--", "./--files0-from=.env"])
    gitIn(sb, repo, ["commit", "-qm", "b"])
  })
  afterAll(() => rmSync(sb.root, { recursive: true, force: true }))

  const attacks: [string, string, RegExp][] = [
    ["", `echo "''-f${"HOME_NETRC"}" | xargs date`, /FAKESECRET-netrc/],
    ["", `echo '\\-f${"HOME_NETRC"}' | xargs file`, /FAKESECRET-netrc/],
    ["quoted", "ls | xargs wc", /FAKESECRET-quoted/],
    ["quoted", "ls -A | xargs -I{} wc {}", /FAKESECRET-quoted/],
    ["newline", "find . -type f | xargs -n1 wc", /FAKESECRET-newline/],
    ["newline", "ls | xargs -I{} wc {}", /FAKESECRET-newline/],
    ["deep", "ls -R | xargs -n1 wc", /FAKESECRET-deep/],
    ["repo", "git diff --name-only HEAD~1 | xargs -I{} wc -l {}", /FAKESECRET-repo/],
    ["repo", "git diff --name-only HEAD~1 | xargs du", /FAKESECRET-repo/],
  ]

  test.each(attacks)("in %j bash prints a secret through %j; ccode asks and names xargs's added words", async (dir, raw, secret) => {
    const command = raw.replace("HOME_NETRC", join(sb.home, ".netrc"))
    const cwd = join(sb.work, dir)
    expect(bashIn(sb, command, cwd)).toMatch(secret)
    const d = await policyCheck(sb, command, { cwd })
    expect([d.decision, d.risk]).toEqual(["ask", "medium"])
    expect(d.reason).toMatch(/xargs (adds|puts there) at run time/)
  })

  // the sound forms: NUL-split find paths, options ended with `--`, plain static names
  const controls: [string, string][] = [
    ["quoted", "find . -type f -print0 | xargs -0 wc -l"],
    ["newline", "find . -type f -print0 | xargs -0 -n1 wc -l"],
    ["quoted", "ls | xargs wc -l --"],
    ["newline", "ls | xargs -I{} wc -l -- {}"],
    ["repo", "git diff --name-only HEAD~1 | xargs -I{} wc -l -- {}"],
    ["quoted", "echo a.txt b.txt | xargs -n1 wc -l"],
  ]

  test.each(controls)("in %j %j prints no secret and stays allowed", async (dir, command) => {
    const cwd = join(sb.work, dir)
    expect(bashIn(sb, command, cwd)).not.toContain("FAKESECRET")
    const d = await policyCheck(sb, command, { cwd })
    expect(d.decision).toBe("allow")
  })
})
