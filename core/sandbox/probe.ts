// Does the sandbox work here? bwrap must be on PATH and able to make its namespaces (a container or
// a kernel without unprivileged user namespaces may refuse). Asked once per process per PATH.
import type { SandboxProbe } from "./types.ts"

const PROBE_TIMEOUT_MS = 5000
const cache = new Map<string, Promise<SandboxProbe>>()

export const INSTALL_HINT = "install bubblewrap (Debian/Ubuntu: apt-get install -y bubblewrap; Fedora: dnf install bubblewrap)"

export function probeSandbox(path: string | undefined): Promise<SandboxProbe> {
  const key = path ?? ""
  let probe = cache.get(key)
  if (!probe) {
    probe = runProbe(path)
    cache.set(key, probe)
  }
  return probe
}

async function runProbe(path: string | undefined): Promise<SandboxProbe> {
  if (process.platform !== "linux") return { ok: false, reason: `the OS sandbox needs Linux with bubblewrap; this is ${process.platform}` }
  const bwrap = Bun.which("bwrap", { PATH: path ?? "" })
  if (!bwrap) return { ok: false, reason: `bwrap (bubblewrap) is not on PATH; ${INSTALL_HINT}` }
  // the same namespaces and mounts every sandboxed call uses
  const argv = [bwrap, "--die-with-parent", "--new-session", "--unshare-pid", "--unshare-ipc", "--unshare-net",
    "--cap-drop", "ALL", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--", "true"]
  try {
    const child = Bun.spawn(argv, { stdin: "ignore", stdout: "ignore", stderr: "pipe", timeout: PROBE_TIMEOUT_MS, killSignal: "SIGKILL" })
    const [code, stderr] = await Promise.all([child.exited, new Response(child.stderr).text()])
    if (code === 0) return { ok: true, bwrap }
    const why = stderr.trim().split("\n").pop() || (child.signalCode ? `killed by ${child.signalCode}` : `exit code ${code}`)
    return { ok: false, reason: `${bwrap} does not work here (${why}); unprivileged user namespaces may be disabled (sysctl kernel.unprivileged_userns_clone / apparmor_restrict_unprivileged_userns)` }
  } catch (error) {
    return { ok: false, reason: `${bwrap} could not be started: ${(error as Error).message}` }
  }
}
