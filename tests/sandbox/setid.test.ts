// No sandboxed call leaves a set-user-ID or set-group-ID file: a step as root owns what it writes and
// could `install -m 4755 /bin/bash tool` for every local user to become root (setid-filter.ts), in a
// call of its own bwrap and in one joined to the run's shared sandbox.
import { describe, expect, test } from "bun:test"
import { existsSync, lstatSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { setIdArches, setIdFilter } from "../../core/sandbox/setid-filter.ts"
import { sharedSetup, usable } from "./shared-setup.ts"

const { setup } = sharedSetup()
const SET_ID = 0o6000
const ATTEMPTS = [
  "cp /bin/sh tool1; chmod 4755 tool1",
  "install -m 4755 /bin/sh tool2",
  "cp /bin/sh tool3; chmod g+s tool3",
  "python3 -c 'import os; os.close(os.open(\"tool4\", os.O_CREAT | os.O_WRONLY, 0o4755))' 2>/dev/null || cp /bin/sh tool4",
  "cp /bin/sh tool5 && python3 -c 'import os; os.chmod(\"tool5\", 0o6755)' 2>/dev/null; true",
  "mkdir shared; chmod 2775 shared",
].join("; ")

function setIdFiles(ws: string): string[] {
  return ["tool1", "tool2", "tool3", "tool4", "tool5", "shared"].filter((n) => existsSync(join(ws, n)) && (lstatSync(join(ws, n)).mode & SET_ID) !== 0)
}

describe.skipIf(!usable || !setIdArches())("set-id bits in a sandboxed call", () => {
  test("a call of its own bwrap cannot set them (chmod, install -m, open with the mode); plain modes still work", async () => {
    const { ws, run } = setup()
    const result = await run(`${ATTEMPTS}; cp /bin/sh plain; chmod 750 plain && echo plain-ok`)
    expect(result.text).toContain("plain-ok")
    expect(setIdFiles(ws)).toEqual([])
    expect(lstatSync(join(ws, "plain")).mode & 0o7777).toBe(0o750)
  })

  test("nor a call joined to the run's shared sandbox", async () => {
    const { ws, run, warm, joined } = setup()
    expect(await warm()).toBe(true)
    const result = await run(`${ATTEMPTS}; tr '\\0' ' ' < /proc/1/cmdline`)
    expect(result.text).toContain("__sandbox-hold")
    expect(setIdFiles(ws)).toEqual([])
    expect(await joined()).toBe(true)
  })

  test("a filter file a step rewrote is written again before the next call", async () => {
    const { ws, run } = setup()
    await run("true")
    writeFileSync(join(ws, ".run", "setid.bpf"), Buffer.alloc(8))
    await run("cp /bin/sh tool1; chmod 4755 tool1")
    expect(setIdFiles(ws)).toEqual([])
  })
})

test("the filter is a whole number of BPF instructions, with a table for each architecture ccode ships for", () => {
  for (const arch of ["x64", "arm64"]) {
    const bytes = setIdFilter(setIdArches(arch)!)
    expect(bytes.length % 8).toBe(0)
    expect(bytes.length / 8).toBeLessThan(256)
  }
  expect(setIdArches("ppc64")).toBeUndefined()
})
