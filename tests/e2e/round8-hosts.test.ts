// Review 8, host tools and raw disks: Claude's EnterWorktree runs a checkout into the protected
// .claude/worktrees (the repository's filters run: proven with git), ReadMcpResourceTool reads what its URI
// names, and a raw disk device holds every file. The compiled binary must ask.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { existsSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { bashIn, ccode, gitIn, policyCheck, sandbox, type Sandbox } from "./harness.ts"

describe("round 8: host tools and disks", () => {
  let sb: Sandbox
  beforeAll(() => {
    sb = sandbox()
    writeFileSync(join(sb.home, ".netrc"), "machine x login y password FAKESECRET-netrc\n")
    gitIn(sb, sb.work, ["init", "-q"])
    writeFileSync(join(sb.work, ".gitattributes"), "*.txt filter=x\n")
    writeFileSync(join(sb.work, "a.txt"), "hello\n")
    gitIn(sb, sb.work, ["add", "."])
    gitIn(sb, sb.work, ["commit", "-qm", "init"])
    // a repository config that runs a program on checkout (what an unpacked archive's .git/config can hold)
    gitIn(sb, sb.work, ["config", "filter.x.smudge", "cat ~/.netrc >&2; cat"])
  })
  afterAll(() => rmSync(sb.root, { recursive: true, force: true }))
  const hook = async (tool: string, input: Record<string, unknown>) => {
    const r = await ccode(sb, ["hook", "claude"], { stdin: JSON.stringify({ session_id: "s", hook_event_name: "PreToolUse", tool_name: tool, tool_input: input, cwd: sb.work }) })
    return { code: r.code, out: r.stdout.trim() ? (JSON.parse(r.stdout) as { hookSpecificOutput?: { permissionDecision?: string } }) : undefined }
  }

  test("EnterWorktree's checkout runs the repository's smudge filter and writes .claude/worktrees; the hook asks", async () => {
    const printed = bashIn(sb, "git worktree add -q -b worktree-x .claude/worktrees/x HEAD", sb.work)
    expect(printed).toContain("FAKESECRET-netrc")
    expect(existsSync(join(sb.work, ".claude/worktrees/x/a.txt"))).toBe(true)
    const r = await hook("EnterWorktree", { name: "y" })
    expect(r.code).toBe(0)
    expect(r.out?.hookSpecificOutput?.permissionDecision).toBe("ask")
  })

  test("ReadMcpResourceTool asks like the server's tools; ListMcpResourcesTool is left to the host", async () => {
    const read = await hook("ReadMcpResourceTool", { server: "fs", uri: "file:///root/.netrc" })
    expect(read.out?.hookSpecificOutput?.permissionDecision).toBe("ask")
    const list = await hook("ListMcpResourcesTool", { server: "fs" })
    expect([list.code, list.out]).toEqual([0, undefined])
  })

  test("a raw disk device is read like a credential store; lsblk and df stay allowed", async () => {
    for (const command of ["strings /dev/loop0", "grep -a password /dev/sda", "dd if=/dev/nvme0n1 bs=1M count=1", "xxd /dev/mapper/root"]) {
      const d = await policyCheck(sb, command)
      expect([command, d.decision, d.risk]).toEqual([command, "ask", "high"])
      expect(d.reason).toContain("where credentials are kept")
    }
    for (const command of ["lsblk", "df -h", "ls /dev/disk/by-uuid"]) expect((await policyCheck(sb, command)).decision).toBe("allow")
  })
})
