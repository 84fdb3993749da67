// Where the warm hook servers' sockets live: the user's runtime folder when the environment names one
// ($XDG_RUNTIME_DIR/ccode: a private tmpfs, and hidden from every sandbox with the rest of it), else a
// private folder in ccode's data folder. The sandbox hides them and the shell analysis counts them as
// ccode's own files, so all name them from here. Pure.
import { join, resolve } from "node:path"

/** The folder of the warm hook servers' sockets for a caller with this environment and data folder. */
export function hookSocketDirFor(env: Record<string, string | undefined>, ccodeHome: string): string {
  const runtime = env.XDG_RUNTIME_DIR
  return runtime?.startsWith("/") ? join(resolve(runtime), "ccode") : hookSocketDir(ccodeHome)
}

/** The folder of the warm hook servers' sockets below a ccode data folder (no runtime folder). */
export function hookSocketDir(ccodeHome: string): string {
  return join(ccodeHome, "hook-warm")
}
