// A hidden path inside the workspace cannot be un-hidden by renaming a folder above it: those folders
// are pinned (bound onto themselves, so a rename gives EBUSY), as a read-only path's are (review 9C A1).
import { describe, expect, test } from "bun:test"
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { sharedSetup, usable } from "./shared-setup.ts"

const { setup } = sharedSetup()

describe.skipIf(!usable)("the folders above a hidden path in the workspace", () => {
  test("renaming a parent fails, in a call of its own and in the shared sandbox; the secret is never read", async () => {
    const { ws, run, warm } = setup({ hidden: ["conf/prod/key.txt"] })
    mkdirSync(join(ws, "conf", "prod"), { recursive: true })
    writeFileSync(join(ws, "conf", "prod", "key.txt"), "FAKESECRET-prodkey\n")
    writeFileSync(join(ws, "mv.sh"), "mv conf conf2 2>/dev/null || echo refused; mv conf/prod conf/p2 2>/dev/null || echo refused\n")
    const outputs: string[] = []
    // the first call starts a bwrap of its own
    outputs.push((await run("sh ./mv.sh")).text)
    outputs.push((await run("cat conf/prod/key.txt conf2/prod/key.txt conf/p2/key.txt 2>/dev/null; true")).text)
    expect(await warm()).toBe(true)
    outputs.push((await run("sh ./mv.sh")).text)
    outputs.push((await run("cat conf/prod/key.txt conf2/prod/key.txt conf/p2/key.txt 2>/dev/null; true")).text)
    expect(outputs[0]).toBe("refused\nrefused\n")
    expect(outputs[2]).toBe("refused\nrefused\n")
    expect(outputs.join("")).not.toContain("FAKESECRET")
  }, 60_000)
})
