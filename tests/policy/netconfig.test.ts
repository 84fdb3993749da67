// curl reads ~/.curlrc (or $CURL_HOME/.curlrc, $XDG_CONFIG_HOME/.curlrc) and wget ~/.wgetrc (or $WGETRC)
// by themselves: one that names a local file to read or send makes every curl/wget of the call high.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { loadParser } from "../../core/shell/index.ts"
import { prepareCall } from "../../core/policy/prepare.ts"
import { decide } from "../../core/policy/decide.ts"
import { bundledPolicy } from "../../core/policy/bundled.ts"

describe("curl and wget config files found on disk", () => {
  let root: string, ws: string, home: string
  beforeAll(async () => {
    await loadParser()
    root = realpathSync(mkdtempSync(join(tmpdir(), "ccode-netcfg-")))
    ws = join(root, "ws")
    home = join(root, "home")
    mkdirSync(ws)
    mkdirSync(join(root, "xdg"))
    mkdirSync(home)
  })
  afterAll(() => rmSync(root, { recursive: true, force: true }))

  const decideIn = async (command: string, env: Record<string, string> = {}) => {
    const call = await prepareCall("shell", { command }, { cwd: ws, workspace: ws, home, env, tmpDirs: ["/nonexistent-tmp"] })
    return decide(bundledPolicy("ci"), call, { grants: [] })
  }

  test("a curlrc or wgetrc that names a file makes curl/wget high", async () => {
    expect((await decideIn("curl -s https://example.com")).decision).toBe("allow")
    writeFileSync(join(home, ".curlrc"), "silent\nwrite-out = \"@.env\"\n")
    const d = await decideIn("curl -s https://example.com")
    expect([d.decision, d.risk]).toEqual(["ask", "high"])
    expect(d.reason).toContain(".curlrc")
    writeFileSync(join(home, ".curlrc"), "--silent\n--location\n")
    expect((await decideIn("curl -s https://example.com")).decision).toBe("allow")
    writeFileSync(join(root, "xdg", ".curlrc"), "data = @/etc/hostname\n")
    expect((await decideIn("curl https://example.com", { XDG_CONFIG_HOME: join(root, "xdg") })).decision).toBe("ask")
    writeFileSync(join(home, ".wgetrc"), "post_file = .env\n")
    expect((await decideIn("wget https://example.com")).decision).toBe("ask")
    writeFileSync(join(home, ".wgetrc"), "robots = off\n")
    expect((await decideIn("wget https://example.com")).decision).toBe("allow")
  })
})
