// bwrap's argv for a layout. Pure: no fs. Mount order matters: later mounts cover earlier ones, so
// the read-only root comes first, writable roots over it, read-only and hidden paths over those.
import type { SandboxLayout } from "./types.ts"

export function bwrapArgv(layout: SandboxLayout, command: readonly string[]): string[] {
  const argv = [
    layout.bwrap,
    // the sandbox ends with ccode: nothing inside outlives the bwrap process the runner kills
    "--die-with-parent",
    // no controlling terminal: a command cannot push keystrokes into the user's shell (TIOCSTI)
    "--new-session",
    // its own pid namespace: when bwrap dies, every process inside dies with it (background ones too)
    "--unshare-pid",
    "--unshare-ipc",
    // as root bwrap would keep its capabilities, enough to remount / read-write
    "--cap-drop", "ALL",
    "--ro-bind", "/", "/",
    "--dev", "/dev",
    "--proc", "/proc",
  ]
  if (layout.network === "none") argv.push("--unshare-net")
  for (const path of layout.writable) argv.push("--bind", path, path)
  for (const path of layout.pinned) argv.push("--bind", path, path)
  for (const path of layout.readOnly) argv.push("--ro-bind", path, path)
  for (const { path, dir } of layout.hidden) {
    if (dir) argv.push("--tmpfs", path, "--remount-ro", path)
    else argv.push("--ro-bind", "/dev/null", path)
  }
  argv.push("--chdir", layout.cwd, "--", ...command)
  return argv
}
