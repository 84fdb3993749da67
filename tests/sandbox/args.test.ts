import { describe, expect, test } from "bun:test"
import { bwrapArgv } from "../../core/sandbox/args.ts"
import type { SandboxLayout } from "../../core/sandbox/types.ts"

const layout: SandboxLayout = {
  bwrap: "/usr/bin/bwrap",
  cwd: "/w/sub",
  writable: ["/w", "/run/tmp"],
  readOnly: ["/w/.git/hooks"],
  pinned: ["/w/.git"],
  hidden: [{ path: "/h/.ssh", dir: true }, { path: "/h/.netrc", dir: false }],
  network: "none",
}

describe("bwrap argv", () => {
  test("the root is read-only first, writable roots over it, read-only and hidden paths over those, then the command", () => {
    const argv = bwrapArgv(layout, ["bash", "-c", "echo hi"])
    const at = (...seq: string[]) => {
      for (let i = 0; i <= argv.length - seq.length; i++) if (seq.every((s, j) => argv[i + j] === s)) return i
      return -1
    }
    expect(argv[0]).toBe("/usr/bin/bwrap")
    expect(at("--ro-bind", "/", "/")).toBeGreaterThan(0)
    expect(at("--bind", "/w", "/w")).toBeGreaterThan(at("--ro-bind", "/", "/"))
    expect(at("--bind", "/run/tmp", "/run/tmp")).toBeGreaterThan(at("--ro-bind", "/", "/"))
    expect(at("--ro-bind", "/w/.git/hooks", "/w/.git/hooks")).toBeGreaterThan(at("--bind", "/w", "/w"))
    expect(at("--tmpfs", "/h/.ssh", "--remount-ro", "/h/.ssh")).toBeGreaterThan(at("--bind", "/run/tmp", "/run/tmp"))
    expect(at("--ro-bind", "/dev/null", "/h/.netrc")).toBeGreaterThan(0)
    expect(argv.slice(-6)).toEqual(["--chdir", "/w/sub", "--", "bash", "-c", "echo hi"])
  })

  test("the process tree dies with bwrap, has no terminal, no capabilities and (network none) no network", () => {
    const argv = bwrapArgv(layout, ["true"])
    for (const flag of ["--die-with-parent", "--new-session", "--unshare-pid", "--unshare-net"]) expect(argv).toContain(flag)
    expect(argv[argv.indexOf("--cap-drop") + 1]).toBe("ALL")
  })

  test("network allow keeps the host's network namespace", () => {
    expect(bwrapArgv({ ...layout, network: "allow" }, ["true"])).not.toContain("--unshare-net")
  })

  test("a host allowlist: no network namespace of the host's, only this call's proxy socket shows in the hidden socket folder, the bridge runs the command", () => {
    const proxy = { socket: "/c/net/ab12.sock", port: 3128, bridge: ["/usr/bin/ccode", "__sandbox-bridge"] }
    const argv = bwrapArgv({ ...layout, network: "proxy", proxy, hidden: [...layout.hidden, { path: "/c/net", dir: true }] }, ["bash", "-c", "curl x"])
    expect(argv).toContain("--unshare-net")
    const at = argv.indexOf("/c/net")
    expect(argv.slice(at - 1, at + 6)).toEqual(["--tmpfs", "/c/net", "--ro-bind", "/c/net/ab12.sock", "/c/net/ab12.sock", "--remount-ro", "/c/net"])
    expect(argv.slice(argv.indexOf("--chdir"))).toEqual(["--chdir", "/w/sub", "--", "/usr/bin/ccode", "__sandbox-bridge", "/c/net/ab12.sock", "3128", "--", "bash", "-c", "curl x"])
  })

  test("a command that looks like a bwrap option stays the command: it comes after --", () => {
    const argv = bwrapArgv(layout, ["--bind", "/", "/"])
    expect(argv.slice(argv.indexOf("--") + 1)).toEqual(["--bind", "/", "/"])
  })
})
