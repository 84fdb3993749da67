// A plain read of an archive (`cat backup.tar`, `strings`, `xxd backup.zip`, `base64 x.tar.gz`) prints
// its members' bytes: tar and cpio store them as they are, zip stores small files as they are, and a compressed
// stream decodes anywhere; an archive stored inside one, and ar's members, likewise; a filesystem image holds its
// files' bytes too. An archive holding a member a path rule names (a .env, an id_rsa) is read
// as that member. Side effects: reads the archive's headers (archives.ts bounds).
import { statSync, type Stats } from "node:fs"
import { posix } from "node:path"
import { archiveKind, archiveMembers, storedNames } from "./archives.ts"
import { imageNames } from "./archiveformats.ts"
import { readRegularBytes } from "../base/readsafe.ts"

import type { Raised } from "./ondisk.ts"

const MAX_IMAGE_BYTES = 32 * 1024 * 1024

/** Raises `high` when the file at `path` is an archive holding a member `judged` picks (named as if
 *  extracted next to it), `medium` when it is one whose members cannot be listed. */
export function archiveRead(path: string, judged: (path: string) => boolean, raised: Raised, known?: Stats): void {
  let st = known
  try {
    st ??= statSync(path, { throwIfNoEntry: false })
  } catch {
    return
  }
  if (!st?.isFile() || st.size < 22) return
  const kind = archiveKind(path, st.size)
  if (!kind) return
  // 7z, rar, cab, xar, squashfs: their names are often in clear (a rar's or cab's headers); when none read so
  // is a credential's, the members are still not known
  if (kind === "other" && otherNamed(path, st.size, judged, raised)) return
  const listed = kind === "image" ? imageListing(path, st.size) : kind === "other" ? { unknown: "a container ccode does not list (7z, rar, cab, xar, squashfs), which can store files as they are" } : archiveMembers(path)
  if ("unknown" in listed) {
    raised.push({ risk: "medium", reason: `reads ${path}, an archive whose members cannot be listed (${listed.unknown}): a credential file among them is not ruled out` })
    return
  }
  const dir = posix.dirname(path)
  // archives stored inside it (a tar in a tar, a tar in a stored zip) print their members as they are
  const stored = kind === "image" ? [] : storedNames(path, st.size)
  for (const name of [...listed.names, ...stored]) {
    if (!judged(posix.normalize(`${dir}/${name}`))) continue
    const what = kind === "image" ? `a filesystem image holding a file named ${name}` : `an archive holding ${name}`
    raised.push({ risk: "high", reason: `reads ${path}, ${what}, which is where credentials are kept: its bytes carry the ${kind === "image" ? "file" : "member"}` })
    return
  }
}

// the names in an image's directories, read from its bytes (ext2/3/4, ISO 9660, FAT store them in clear)
function imageListing(path: string, size: number): { names: string[] } | { unknown: string } {
  if (size > MAX_IMAGE_BYTES) return { unknown: `a filesystem image larger than ${MAX_IMAGE_BYTES >> 20} MiB` }
  try {
    return imageNames(readRegularBytes(path, MAX_IMAGE_BYTES))
  } catch {
    return { unknown: "it cannot be read" }
  }
}

function otherNamed(path: string, size: number, judged: (path: string) => boolean, raised: Raised): boolean {
  const words = imageListing(path, size)
  if ("unknown" in words) return false
  const dir = posix.dirname(path)
  const name = words.names.find((n) => judged(posix.normalize(`${dir}/${n}`)))
  if (name) raised.push({ risk: "high", reason: `reads ${path}, an archive whose headers name ${name}, which is where credentials are kept: its bytes can carry the member` })
  return name !== undefined
}
