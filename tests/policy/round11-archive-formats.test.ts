// Round 11: containers that store files as they are beyond ustar tar and zip — a v7 tar (no `ustar` magic),
// cpio (newc, crc, odc, binary; plain and gzip), an ext2 filesystem image — print a credential member on a
// plain read (`cat`, `strings`, `grep -a`): each asks high and names the member. Real archives (GNU tar,
// a python writer of cpio headers, mke2fs when installed) in a temp folder, decided under the default policy.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { gzipSync } from "node:zlib"
import { loadParser } from "../../core/shell/index.ts"
import { prepareCall } from "../../core/policy/prepare.ts"
import { decide } from "../../core/policy/decide.ts"
import { bundledPolicy } from "../../core/policy/bundled.ts"
import { archiveMembers } from "../../core/policy/archives.ts"
import { imageNames } from "../../core/policy/archiveformats.ts"

const has = (program: string) => Bun.spawnSync(["sh", "-c", `command -v ${program}`]).exitCode === 0

// a cpio archive of (name, content) pairs in the given format, written header by header as cpio does
function cpio(format: "newc" | "crc" | "odc" | "bin", files: [string, string][]): Buffer {
  const parts: Buffer[] = []
  let at = 0
  const push = (b: Buffer) => (parts.push(b), (at += b.length))
  const pad = (n: number) => push(Buffer.alloc((n - (at % n)) % n))
  for (const [name, body] of [...files, ["TRAILER!!!", ""] as [string, string]]) {
    const nm = Buffer.from(`${name}\0`)
    const data = Buffer.from(body)
    if (format === "newc" || format === "crc") {
      const hex = (v: number) => v.toString(16).padStart(8, "0")
      const fields = [1, name === "TRAILER!!!" ? 0 : 0o100644, 0, 0, 1, 0, data.length, 0, 0, 0, 0, nm.length, 0]
      push(Buffer.from((format === "newc" ? "070701" : "070702") + fields.map(hex).join("")))
      push(nm); pad(4); push(data); pad(4)
    } else if (format === "odc") {
      const oct = (v: number, w: number) => v.toString(8).padStart(w, "0")
      push(Buffer.from(`070707${oct(0, 6)}${oct(1, 6)}${oct(0o100644, 6)}${oct(0, 6)}${oct(0, 6)}${oct(1, 6)}${oct(0, 6)}${oct(0, 11)}${oct(nm.length, 6)}${oct(data.length, 11)}`))
      push(nm); push(data)
    } else {
      const h = Buffer.alloc(26)
      const words = [0o070707, 0, 1, 0o100644, 0, 0, 1, 0, 0, 0, nm.length, data.length >> 16, data.length & 0xffff]
      words.forEach((w, i) => h.writeUInt16LE(w, i * 2))
      push(h); push(nm); pad(2); push(data); pad(2)
    }
  }
  return Buffer.concat(parts)
}

describe("archive formats stored as they are", () => {
  let ws: string
  beforeAll(async () => {
    await loadParser()
    ws = realpathSync(mkdtempSync(join(tmpdir(), "ccode-r11arch-")))
    const src = join(ws, "src")
    mkdirSync(join(src, "d"), { recursive: true })
    writeFileSync(join(src, ".env"), "API_KEY=FAKESECRET-dotenv\n")
    writeFileSync(join(src, "d", "notes.txt"), "notes\n")
    const tar = (args: string[]) => {
      const r = Bun.spawnSync(["tar", ...args], { cwd: src, stderr: "pipe" })
      if (r.exitCode !== 0) throw new Error(r.stderr.toString())
    }
    tar(["--format=v7", "-cf", join(ws, "b-v7.tar"), ".env"])
    tar(["--format=v7", "-cf", join(ws, "plain-v7.tar"), "d/notes.txt"])
    tar(["--format=v7", "-czf", join(ws, "b-v7.tgz"), ".env"])
    const secret: [string, string][] = [[".env", "API_KEY=FAKESECRET-dotenv\n"]]
    writeFileSync(join(ws, "b.cpio"), cpio("newc", secret))
    writeFileSync(join(ws, "k-crc.cpio"), cpio("crc", [["home/.ssh/id_rsa", "FAKESECRET-idrsa\n"]]))
    writeFileSync(join(ws, "b-odc.cpio"), cpio("odc", [["notes.txt", "x\n"], ...secret]))
    writeFileSync(join(ws, "b-bin.cpio"), cpio("bin", secret))
    writeFileSync(join(ws, "b.cpio.gz"), gzipSync(cpio("newc", secret)))
    writeFileSync(join(ws, "plain.cpio"), cpio("newc", [["d/notes.txt", "notes\n"]]))
    // a tar stored in a gzip'd tar
    tar(["-cf", join(ws, "inner.tar"), ".env"])
    tar(["-czf", join(ws, "nest.tgz"), "-C", ws, "inner.tar"])
    rmSync(join(ws, "inner.tar"))
    // a cpio stored in a v7 tar
    tar(["--format=v7", "-cf", join(ws, "nested.tar"), "-C", ws, "b.cpio"])
    if (has("mke2fs")) {
      const img = Bun.spawnSync(["mke2fs", "-q", "-F", "-t", "ext2", "-d", src, join(ws, "disk.img"), "1M"], { stderr: "pipe" })
      if (img.exitCode !== 0) throw new Error(img.stderr.toString())
      rmSync(join(src, ".env"))
      Bun.spawnSync(["mke2fs", "-q", "-F", "-t", "ext2", "-d", src, join(ws, "plain.img"), "1M"])
    }
    rmSync(src, { recursive: true, force: true })
  })
  afterAll(() => rmSync(ws, { recursive: true, force: true }))

  const decideDefault = async (command: string) => {
    const policy = bundledPolicy("default")
    const call = await prepareCall("shell", { command }, { cwd: ws, workspace: ws, home: "/nonexistent", tmpDirs: ["/nonexistent-tmp"], policy })
    return decide(policy, call, { grants: [] })
  }

  test("the members of v7 tar and every cpio format are listed", () => {
    expect(archiveMembers(join(ws, "b-v7.tar"))).toEqual({ names: [".env"] })
    expect(archiveMembers(join(ws, "b-v7.tgz"))).toEqual({ names: [".env"] })
    expect(archiveMembers(join(ws, "b.cpio"))).toEqual({ names: [".env"] })
    expect(archiveMembers(join(ws, "k-crc.cpio"))).toEqual({ names: ["home/.ssh/id_rsa"] })
    expect(archiveMembers(join(ws, "b-odc.cpio"))).toEqual({ names: ["notes.txt", ".env"] })
    expect(archiveMembers(join(ws, "b-bin.cpio"))).toEqual({ names: [".env"] })
    expect(archiveMembers(join(ws, "b.cpio.gz"))).toEqual({ names: [".env"] })
  })

  test("a plain read of one holding a credential member asks high and names it", async () => {
    const cmds = ["cat b-v7.tar", "cat b.cpio", "strings b-odc.cpio", "cat k-crc.cpio", "xxd b-bin.cpio", "base64 b.cpio.gz", "cat b-v7.tgz", "grep -a FAKE b.cpio", "cat nested.tar", "cat nest.tgz"]
    for (const command of cmds) {
      const d = await decideDefault(command)
      expect({ command, decision: d.decision, risk: d.risk, named: /\.env|id_rsa/.test(d.reason) }).toEqual({ command, decision: "ask", risk: "high", named: true })
    }
  })

  test.skipIf(!has("mke2fs"))("a filesystem image holding .env asks high on strings and grep -a", async () => {
    for (const command of ["strings disk.img", "grep -a FAKE disk.img", "cat disk.img"]) {
      const d = await decideDefault(command)
      expect({ command, decision: d.decision, risk: d.risk, named: d.reason.includes("filesystem image holding a file named .env") }).toEqual({ command, decision: "ask", risk: "high", named: true })
    }
  })

  test("an image's names in ISO 9660 (plain, Joliet UTF-16BE) and FAT long-name entries are read", () => {
    const fat = Buffer.alloc(64)
    // one long-name entry (number 1, the last: 0x41) holding "id_rsa_deploy" across its three pieces
    fat[0] = 0x41
    fat[11] = 0x0f
    const chars = "id_rsa_deploy"
    ;[1, 3, 5, 7, 9, 14, 16, 18, 20, 22, 24, 28, 30].forEach((at, i) => fat.writeUInt16LE(chars.charCodeAt(i), at))
    const joliet = Buffer.concat([Buffer.from([0, 0, 0x22]), Buffer.from(".npmrc", "utf16le").swap16(), Buffer.from([0, 1])])
    const plain = Buffer.from("\x08\x01_ENV.;1\x00")
    const names = imageNames(Buffer.concat([fat, joliet, plain]))
    expect("names" in names && ["id_rsa_deploy", ".npmrc", ".env"].every((n) => names.names.includes(n))).toBe(true)
  })

  test("a container not listed here (rar) whose headers name .env is high; one naming none is medium", async () => {
    const rar = (name: string, body: string) => Buffer.concat([Buffer.from("Rar!\x1a\x07\x01\x00", "latin1"), Buffer.alloc(20), Buffer.from([name.length]), Buffer.from(name), Buffer.alloc(4), Buffer.from(body)])
    writeFileSync(join(ws, "b.rar"), rar(".env", "API_KEY=FAKESECRET\n"))
    writeFileSync(join(ws, "c.rar"), rar("a.md", "hello\n"))
    const secret = await decideDefault("cat b.rar")
    expect({ decision: secret.decision, risk: secret.risk, named: secret.reason.includes(".env") }).toEqual({ decision: "ask", risk: "high", named: true })
    const plain = await decideDefault("cat c.rar")
    expect({ risk: plain.risk, named: plain.reason.includes("cannot be listed") }).toEqual({ risk: "medium", named: true })
  })

  test("controls: archives and images of ordinary files stay allowed", async () => {
    for (const command of ["cat plain-v7.tar", "strings plain.cpio", ...(has("mke2fs") ? ["strings plain.img"] : [])]) {
      const d = await decideDefault(command)
      expect({ command, decision: d.decision, reason: d.reason }).toEqual({ command, decision: "allow", reason: d.reason })
    }
  })
})
