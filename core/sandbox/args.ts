// bwrap's argv for a layout. Pure: no fs. Mount order matters: later mounts cover earlier ones, so
// the read-only root comes first, writable roots over it, read-only and hidden paths over those.
import { dirname } from "node:path"
import { isInside } from "../base/paths.ts"
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
  // a hidden folder that holds a writable root (ccode's data folder holds the run's temp dir) is an empty
  // tmpfs laid before the roots inside it and after those around it; only those roots show through it
  const under = layout.hidden.filter((h) => h.dir && layout.writable.some((w) => w !== h.path && isInside(h.path, w))).map((h) => h.path)
  const shows = (path: string) => under.every((u) => !isInside(u, path) || layout.writable.some((w) => w !== u && isInside(u, w) && isInside(w, path)))
  // a hidden path inside a hidden folder is hidden with it (and could not be mounted in its read-only tmpfs)
  const dirs = layout.hidden.filter((h) => h.dir).map((h) => h.path)
  const covered = (path: string) => dirs.some((d) => d !== path && isInside(d, path) && !layout.writable.some((w) => w !== d && isInside(d, w) && isInside(w, path)))
  const binds = [
    ...layout.writable.map((path) => ({ path, tmpfs: false })),
    ...layout.pinned.filter(shows).map((path) => ({ path, tmpfs: false })),
    ...under.map((path) => ({ path, tmpfs: true })),
  ]
  // outer paths first (a parent is shorter than its child; the sort is stable)
  for (const { path, tmpfs } of binds.sort((a, b) => a.path.length - b.path.length)) argv.push(...(tmpfs ? ["--tmpfs", path] : ["--bind", path, path]))
  for (const path of layout.readOnly.filter(shows)) argv.push("--ro-bind", path, path)
  const proxy = layout.proxy
  let socketBound = false
  for (const { path, dir } of layout.hidden) {
    if (under.includes(path) || covered(path)) continue
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
  for (const path of under) argv.push("--remount-ro", path)
  const inner = proxy ? [...proxy.bridge, proxy.socket, String(proxy.port), "--", ...command] : command
  if (!layout.seccomp) {
    argv.push("--chdir", layout.cwd, "--", ...inner)
    return argv
  }
  // bwrap reads the filter from an open descriptor: the shell opens it (not close-on-exec) and becomes bwrap;
  // -p: a bash as sh reads no startup file, SHELLOPTS or functions from the step's environment (on the host)
  argv.push("--seccomp", String(FILTER_FD), "--chdir", layout.cwd, "--", ...inner)
  return ["/bin/sh", "-p", "-c", `exec "$@" ${FILTER_FD}<"$0"`, layout.seccomp, ...argv]
}

/** The descriptor bwrap is given the seccomp filter on. */
export const FILTER_FD = 9
