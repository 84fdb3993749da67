// Was a failed command stopped by the sandbox? Reads the command's own error lines (bash, coreutils,
// git, curl, node, python all name the path or the network error) against the layout. Pure.
import { resolve } from "node:path"
import type { SandboxLayout } from "./types.ts"
import { expandHome, isInside } from "../base/paths.ts"

const WRITE_DENIED = /(Read-only file system|Permission denied|Operation not permitted|EROFS|EACCES|EPERM)/
const MISSING = /(No such file or directory|ENOENT)/
const NETWORK = /(Connection refused|Couldn't connect to server|Network is unreachable|Could not resolve host|Temporary failure in name resolution|Name or service not known|nodename nor servname|ECONNREFUSED|ENETUNREACH|EAI_AGAIN|ENOTFOUND|getaddrinfo)/i
// a path in an error line: quoted ('x', ‘x’, "x", `x`) or bare, absolute, ~ or relative with a slash or dot
const PATH = /['‘"`]([^'’"`\n]+)['’"`]|((?:~|\.{0,2})?\/[^\s:'’"`,;]+|[\w.-]*\.[\w.-]+(?:\/[^\s:'’"`,;]*)?)/g

export interface Blocked {
  /** "write to ~/.bashrc", "read of ~/.ssh/id_rsa (hidden)", "network access (sandbox.network: none)" */
  what: string
  /** the policy change that would let it through, when there is an obvious one */
  hint?: string
}

// git writes its own folder (index, objects, refs) on commit, add, checkout; its hooks and config
// are what would run code, and they stay read-only even when the folder is writable
const GIT_HINT = "git's folder is read-only in the sandbox: to let steps commit, add `.git` to sandbox.writable (its hooks and config stay read-only)"

export function blockedBySandbox(output: string, layout: SandboxLayout, home: string): Blocked | undefined {
  for (const line of output.split("\n")) {
    const write = WRITE_DENIED.test(line)
    const missing = !write && MISSING.test(line)
    if (write || missing) {
      for (const path of pathsIn(line, layout.cwd, home)) {
        if (write && (!layout.writable.some((w) => isInside(w, path)) || layout.readOnly.some((r) => isInside(r, path)))) {
          return { what: `write to ${tilde(path, home)}`, ...(gitInternal(path, layout) ? { hint: GIT_HINT } : {}) }
        }
        if (missing && layout.hidden.some((h) => h.dir && isInside(h.path, path) && path !== h.path)) {
          return { what: `read of ${tilde(path, home)} (hidden)` }
        }
      }
    }
    if (layout.network !== "allow" && NETWORK.test(line)) {
      return layout.network === "none"
        ? { what: "network access (sandbox.network: none)" }
        : { what: "network access outside the proxy (sandbox.network lists hosts; only programs that use HTTP_PROXY/HTTPS_PROXY get through)" }
    }
  }
  return undefined
}

/** A path in a workspace repository's own folder that is neither its hooks nor its config. */
function gitInternal(path: string, layout: SandboxLayout): boolean {
  const at = path.lastIndexOf("/.git/")
  if (at < 0) return false
  const rest = path.slice(at + "/.git/".length)
  return !/^(hooks|config)(\/|$)/.test(rest) && layout.writable.some((w) => isInside(w, path.slice(0, at)))
}

function pathsIn(line: string, cwd: string, home: string): string[] {
  const out: string[] = []
  for (const m of line.matchAll(PATH)) {
    const raw = (m[1] ?? m[2] ?? "").trim()
    if (!raw || /^[a-z]+:\/\//i.test(raw)) continue
    out.push(resolve(cwd, expandHome(raw, home)))
  }
  return out
}

function tilde(path: string, home: string): string {
  return isInside(home, path) ? `~${path.slice(home.length)}` : path
}
