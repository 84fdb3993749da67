// rg skips dot-files unless its override globs (-g/--glob/--iglob), a selected file type (--type-add
// 'e:*.env' -te) or a `!` line of an ignore file (.ignore, .rgignore, .gitignore, in the folder searched or
// above) names them: then it searches them (checked with ripgrep 13). The walk ccode makes on disk lets exactly those through, ignoring case.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { loadParser } from "../../core/shell/index.ts"
import { prepareCall } from "../../core/policy/prepare.ts"
import { decide } from "../../core/policy/decide.ts"
import { bundledPolicy } from "../../core/policy/bundled.ts"

describe("rg and the dot-files its globs and ignore files name", () => {
  let root: string
  let ws: string
  beforeAll(async () => {
    await loadParser()
    root = realpathSync(mkdtempSync(join(tmpdir(), "ccode-rgdot-")))
    ws = join(root, "ws")
    mkdirSync(join(ws, "sub"), { recursive: true })
    mkdirSync(join(root, "home"))
    writeFileSync(join(ws, ".env"), "TOKEN=FAKESECRET-env\n")
    writeFileSync(join(ws, "sub", ".env"), "TOKEN=FAKESECRET-sub\n")
    writeFileSync(join(ws, "a.txt"), "TOKEN=a\n")
  })
  afterAll(() => rmSync(root, { recursive: true, force: true }))

  const decideIn = async (command: string) => {
    const call = await prepareCall("shell", { command }, { cwd: ws, workspace: ws, home: join(root, "home"), tmpDirs: ["/tmp"] })
    return decide(bundledPolicy("ci"), call, { grants: [] })
  }
  const expectAsk = async (command: string) => {
    const d = await decideIn(command)
    expect({ command, decision: d.decision, risk: d.risk }).toEqual({ command, decision: "ask", risk: "high" })
    expect(d.reason).toContain(".env")
  }
  const expectAllow = async (command: string) => {
    const d = await decideIn(command)
    expect({ command, decision: d.decision, reason: d.reason }).toEqual({ command, decision: "allow", reason: d.reason })
  }

  test("override globs that match a dot-name", async () => {
    for (const c of ["rg -g .env TOKEN", "rg -g '.e*' TOKEN", "rg -g '{.env,x}' TOKEN", "rg --iglob .ENV TOKEN", "rg --glob=.env TOKEN", "rg -g '*' TOKEN", "rg -g 'sub/.env' TOKEN", "rg -g .env TOKEN sub", "rg -g \"$G\" TOKEN"]) await expectAsk(c)
  })

  test("controls: globs that match no dot-name, and rg without any", async () => {
    for (const c of ["rg TOKEN", "rg -g '*.ts' TOKEN", "rg -g '!.env' TOKEN", "rg --glob 'src/**' TOKEN", "rg -n TOKEN sub", "ag -G env TOKEN"]) await expectAllow(c)
  })

  test("a selected type whose glob matches a dot-name (rg decides types before the hidden test)", async () => {
    for (const c of [
      "rg --type-add 'e:.env' -te TOKEN", "rg --type-add 'e:*' -te TOKEN", "rg -te --type-add 'e:.[e]nv' TOKEN", "rg --type-add 'a:.*' -ta TOKEN",
      "rg --type-add 'e:*.env' -te TOKEN sub", "rg --type-add 'e:*.env' --type-add 'f:include:e' -tf TOKEN", "rg --type-add 'e:*.env' -tall TOKEN",
      "rg --type-add 'e:*.env' --type=e TOKEN", "rg --type-add \"e:$G\" -te TOKEN", "rg --type-add 'e:*.ENV' -t e TOKEN",
      // ripgrep 14's built-in sh type holds .env and *.env (all is every type)
      "rg -tsh TOKEN", "rg --type=sh TOKEN", "rg -tall TOKEN", "rg --type-add 'x:include:sh' -tx TOKEN",
    ]) await expectAsk(c)
  })

  test("controls: types that match no dot-name, a type defined but not selected", async () => {
    for (const c of ["rg --type-add 'web:*.vue' -tweb TOKEN", "rg -tpy TOKEN", "rg -t ts TOKEN", "rg --type-add 'e:*.env' TOKEN", "rg -tjs TOKEN"]) await expectAllow(c)
  })

  test("a `!` line of an ignore file in the folder or above it", async () => {
    for (const f of [".ignore", ".rgignore", ".gitignore"]) {
      writeFileSync(join(ws, f), "!.env\n")
      await expectAsk("rg TOKEN")
      await expectAsk("rg TOKEN sub")
      await expectAllow("ag TOKEN")
      rmSync(join(ws, f))
    }
    writeFileSync(join(ws, "sub", ".rgignore"), "!.ENV\n")
    await expectAsk("rg TOKEN")
    rmSync(join(ws, "sub", ".rgignore"))
    // a whitelist of a name that is no secret lets only that name through
    writeFileSync(join(ws, ".gitignore"), ".env*\n!.env.example\n!.github/\n")
    await expectAllow("rg TOKEN")
    rmSync(join(ws, ".gitignore"))
  })
})
