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

  test("a command that looks like a bwrap option stays the command: it comes after --", () => {
    const argv = bwrapArgv(layout, ["--bind", "/", "/"])
    expect(argv.slice(argv.indexOf("--") + 1)).toEqual(["--bind", "/", "/"])
  })
})
