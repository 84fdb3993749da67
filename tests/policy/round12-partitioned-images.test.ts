// Round 12: a filesystem image inside a partition table (the usual `disk.img`: an MBR or a GPT, the ext4
// filesystem 1 MiB in) holding ~/.netrc prints it to `strings`, `cat`, `grep -a` as an unpartitioned image
// does: each asks high naming .netrc. Controls: a partitioned image without credential names, a file that
// merely ends its first sector with 0x55AA. Built with mke2fs (skipped where it is missing) in a temp folder.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync, openSync, writeSync, closeSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { loadParser } from "../../core/shell/index.ts"
import { prepareCall } from "../../core/policy/prepare.ts"
import { decide } from "../../core/policy/decide.ts"
import { bundledPolicy } from "../../core/policy/bundled.ts"
import { partitionStarts } from "../../core/policy/partitions.ts"

const hasMke2fs = Bun.spawnSync(["sh", "-c", "command -v mke2fs || test -x /usr/sbin/mke2fs || test -x /sbin/mke2fs"]).exitCode === 0
const MKE2FS = ["/usr/sbin/mke2fs", "/sbin/mke2fs"].find((p) => Bun.file(p).size > 0) ?? "mke2fs"

function mbr(): Buffer {
  const b = Buffer.alloc(512)
  b[446 + 4] = 0x83
  b.writeUInt32LE(2048, 446 + 8)
  b.writeUInt32LE(8192, 446 + 12)
  b[510] = 0x55
  b[511] = 0xaa
  return b
}

function gpt(): Buffer {
  const b = Buffer.alloc(1024 + 128 * 128)
  b[510] = 0x55
  b[511] = 0xaa
  b[446 + 4] = 0xee
  b.writeUInt32LE(1, 446 + 8)
  b.write("EFI PART", 512, "latin1")
  b.writeBigUInt64LE(2n, 512 + 72)
  b.writeUInt32LE(128, 512 + 80)
  b.writeUInt32LE(128, 512 + 84)
  b.fill(0x11, 1024, 1024 + 16)
  b.writeBigUInt64LE(2048n, 1024 + 32)
  return b
}

describe("filesystem images inside a partition table", () => {
  let root: string
  let ws: string
  beforeAll(async () => {
    await loadParser()
    root = realpathSync(mkdtempSync(join(tmpdir(), "ccode-partimg-")))
    ws = join(root, "ws")
    for (const d of [ws, join(root, "fs"), join(root, "plain")]) mkdirSync(d, { recursive: true })
    writeFileSync(join(root, "fs", ".netrc"), "machine x login u password FAKESECRET-netrc\n")
    writeFileSync(join(root, "plain", "hello.txt"), "hello\n")
    const image = (name: string, table: Buffer, dir: string) => {
      const path = join(ws, name)
      const r = Bun.spawnSync([MKE2FS, "-q", "-F", "-t", "ext4", "-d", dir, "-E", "offset=1048576", path, "4M"], { stderr: "pipe" })
      if (r.exitCode !== 0) throw new Error(r.stderr.toString())
      const fd = openSync(path, "r+")
      writeSync(fd, table, 0, table.length, 0)
      closeSync(fd)
    }
    if (hasMke2fs) {
      image("disk.img", mbr(), join(root, "fs"))
      image("gpt.img", gpt(), join(root, "fs"))
      image("clean.img", mbr(), join(root, "plain"))
    }
    const odd = Buffer.alloc(4096, 0x61)
    odd[510] = 0x55
    odd[511] = 0xaa
    writeFileSync(join(ws, "odd.bin"), odd)
  })
  afterAll(() => rmSync(root, { recursive: true, force: true }))

  const decideIn = async (command: string) => {
    const policy = bundledPolicy("default")
    const call = await prepareCall("shell", { command }, { cwd: ws, workspace: ws, policy, home: join(root, "nohome"), tmpDirs: [], env: { HOME: join(root, "nohome") } })
    return decide(policy, call, { grants: [] })
  }

  test("the partitions' starts are read from an MBR and a GPT", () => {
    const reader = (b: Buffer) => (at: number, n: number) => b.subarray(at, at + n)
    const m = Buffer.concat([mbr(), Buffer.alloc(2 << 20)])
    expect(partitionStarts(reader(m), m.length)).toEqual([1048576])
    const g = Buffer.concat([gpt(), Buffer.alloc(2 << 20)])
    expect(partitionStarts(reader(g), g.length)).toEqual([1048576])
    const none = Buffer.alloc(4096, 0x61)
    expect(partitionStarts(reader(none), none.length)).toEqual([])
  })

  test.skipIf(!hasMke2fs)("reads of a partitioned image holding .netrc ask high naming it", async () => {
    expect(Bun.spawnSync(["strings", join(ws, "disk.img")]).stdout.toString()).toContain("FAKESECRET-netrc")
    for (const command of ["strings disk.img", "cat disk.img", "grep -a FAKE disk.img", "strings gpt.img", "head -c 2000000 gpt.img"]) {
      const d = await decideIn(command)
      expect({ command, decision: d.decision, risk: d.risk, named: d.reason.includes(".netrc") }).toEqual({ command, decision: "ask", risk: "high", named: true })
    }
  })

  test.skipIf(!hasMke2fs)("controls: a partitioned image without credential names, a file ending its first sector with 0x55AA", async () => {
    for (const command of ["strings clean.img", "cat odd.bin", "ls -l"]) {
      const d = await decideIn(command)
      expect({ command, decision: d.decision, reason: d.reason }).toEqual({ command, decision: "allow", reason: d.reason })
    }
  })
})
