import { describe, expect, test } from "bun:test"
import { blockedBySandbox } from "../../core/sandbox/blocked.ts"
import type { SandboxLayout } from "../../core/sandbox/types.ts"

const home = "/home/u"
const layout: SandboxLayout = {
  bwrap: "/usr/bin/bwrap",
  cwd: "/w",
  writable: ["/w", "/run/tmp"],
  readOnly: ["/w/.git/hooks"],
  pinned: ["/w/.git"],
  hidden: [{ path: "/home/u/.ssh", dir: true }],
  network: "none",
}
const what = (output: string, l = layout) => blockedBySandbox(output, l, home)?.what

describe("a failure caused by the sandbox is named", () => {
  test("writes outside the writable roots, as bash, coreutils and node report them", () => {
    expect(what("bash: /home/u/.bashrc: Read-only file system")).toBe("write to ~/.bashrc")
    expect(what("touch: cannot touch '/etc/x': Read-only file system")).toBe("write to /etc/x")
    expect(what("mkdir: cannot create directory ‘/opt/y’: Read-only file system")).toBe("write to /opt/y")
    expect(what("Error: EROFS: read-only file system, open '/home/u/.npm/x'")).toBe("write to ~/.npm/x")
  })

  test("a write to a read-only path inside the workspace, given relative to the command's directory", () => {
    expect(what("hook.sh: line 1: .git/hooks/x: Read-only file system")).toBe("write to /w/.git/hooks/x")
  })

  test("a commit stopped by git's read-only folder says how to let steps commit; its hooks and config get no such hint", () => {
    const git = { ...layout, readOnly: ["/w/.git"] }
    const index = blockedBySandbox("fatal: Unable to create '/w/.git/index.lock': Read-only file system", git, home)
    expect(index).toEqual({ what: "write to /w/.git/index.lock", hint: expect.stringContaining("add `.git` to sandbox.writable") })
    expect(blockedBySandbox("h.sh: line 1: .git/hooks/pre-commit: Read-only file system", git, home)).toEqual({ what: "write to /w/.git/hooks/pre-commit" })
    expect(blockedBySandbox("h.sh: line 1: .git/config: Read-only file system", git, home)).toEqual({ what: "write to /w/.git/config" })
  })

  test("a read of a hidden credential", () => {
    expect(what("cat: /home/u/.ssh/id_rsa: No such file or directory")).toBe("read of ~/.ssh/id_rsa (hidden)")
  })

  test("network errors with network none, not with network allow", () => {
    expect(what("bash: connect: Connection refused")).toBe("network access (sandbox.network: none)")
    expect(what("curl: (6) Could not resolve host: example.com")).toBe("network access (sandbox.network: none)")
    expect(what("curl: (7) Failed to connect to 127.0.0.1 port 9 after 0 ms: Couldn't connect to server")).toBe("network access (sandbox.network: none)")
    expect(what("bash: connect: Connection refused", { ...layout, network: "allow" })).toBeUndefined()
    // a host list: a program that ignored the proxy variables found no network of its own
    expect(what("curl: (6) Could not resolve host: example.com", { ...layout, network: "proxy" })).toStartWith("network access outside the proxy")
  })

  test("ordinary failures inside the workspace are not blamed on the sandbox", () => {
    expect(what("cat: /w/missing.txt: No such file or directory")).toBeUndefined()
    expect(what("bash: ./x.sh: Permission denied")).toBeUndefined()
    expect(what("bash: /run/tmp/f: Permission denied")).toBeUndefined()
    expect(what("error: test failed, 3 of 10")).toBeUndefined()
  })
})
