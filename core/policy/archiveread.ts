// A plain read of an archive (`cat backup.tar`, `strings`, `xxd backup.zip`, `base64 x.tar.gz`) prints
// its members' bytes: tar stores them as they are, zip stores small files as they are, and a compressed
// stream decodes anywhere; an archive stored inside one, and ar's members, likewise. An archive holding a member a path rule names (a .env, an id_rsa) is read
// as that member. Side effects: reads the archive's headers (archives.ts bounds).
import { statSync } from "node:fs"
import { posix } from "node:path"
import { archiveMembers, looksLikeArchive, storedNames } from "./archives.ts"

import type { Raised } from "./ondisk.ts"

/** Raises `high` when the file at `path` is an archive holding a member `judged` picks (named as if
 *  extracted next to it), `medium` when it is one whose members cannot be listed. */
export function archiveRead(path: string, judged: (path: string) => boolean, raised: Raised): void {
  let st
  try {
    st = statSync(path, { throwIfNoEntry: false })
  } catch {
    return
  }
  if (!st?.isFile() || st.size < 22 || !looksLikeArchive(path, st.size)) return
  const listed = archiveMembers(path)
  if ("unknown" in listed) {
    raised.push({ risk: "medium", reason: `reads ${path}, an archive whose members cannot be listed (${listed.unknown}): a credential file among them is not ruled out` })
    return
  }
  const dir = posix.dirname(path)
  // archives stored inside it (a tar in a tar, a tar in a stored zip) print their members as they are
  for (const name of [...listed.names, ...storedNames(path, st.size)]) {
    if (!judged(posix.normalize(`${dir}/${name}`))) continue
    raised.push({ risk: "high", reason: `reads ${path}, an archive holding ${name}, which is where credentials are kept: its bytes carry the member` })
    return
  }
}
