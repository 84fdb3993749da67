// bwrap's argv for a layout. Pure: no fs. Mount order matters: later mounts cover earlier ones, so
// the read-only root comes first, writable roots over it, read-only and hidden paths over those.
import { dirname } from "node:path"
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
    // /dev read-only, /dev/shm its own tmpfs: no command replaces /dev/fd, /dev/stdout or /dev/shm with
    // a link for a later command (of the same call, or of a later call in a run's shared sandbox)
    "--tmpfs", "/dev/shm",
    "--remount-ro", "/dev",
    "--proc", "/proc",
  ]
  if (layout.network !== "allow") argv.push("--unshare-net")
  for (const path of layout.writable) argv.push("--bind", path, path)
  for (const path of layout.pinned) argv.push("--bind", path, path)
  for (const path of layout.readOnly) argv.push("--ro-bind", path, path)
  const proxy = layout.proxy
  let socketBound = false
  for (const { path, dir } of layout.hidden) {
    if (!dir) {
      argv.push("--ro-bind", "/dev/null", path)
      continue
    }
    argv.push("--tmpfs", path)
    // the folder of every run's proxy sockets is hidden; this call's own socket alone shows through
    if (proxy && dirname(proxy.socket) === path) {
      argv.push("--ro-bind", proxy.socket, proxy.socket)
      socketBound = true
    }
    argv.push("--remount-ro", path)
  }
  if (proxy && !socketBound) argv.push("--ro-bind", proxy.socket, proxy.socket)
  const inner = proxy ? [...proxy.bridge, proxy.socket, String(proxy.port), "--", ...command] : command
  argv.push("--chdir", layout.cwd, "--", ...inner)
  return argv
}
