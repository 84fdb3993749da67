// Trust checks over a RunStore for loaders that stay synchronous (policy, plugins, task env): the
// trusted files are read once, then every check is a lookup. Same rule as core/store/trust.ts: a file
// is trusted for one workspace only, both compared after realpath.
import { realpathOr } from "../base/paths.ts"
import type { RunStore } from "./api.ts"

/** (file, content hash, another workspace?) -> trusted for `workspace` (or `other`)? */
export type TrustCheck = (file: string, hash: string, other?: string) => boolean

/** The trusted files as they are now; `.in(workspace)` checks files for that workspace. */
export async function readTrust(store: RunStore): Promise<{ in(workspace: string): TrustCheck }> {
  const hashes = new Map((await store.trustedFiles()).map((f) => [`${f.workspace}\0${f.path}`, f.hash]))
  return {
    in(workspace) {
      const root = realpathOr(workspace)
      return (file, hash, other) => hashes.get(`${other === undefined ? root : realpathOr(other)}\0${realpathOr(file)}`) === hash
    },
  }
}
