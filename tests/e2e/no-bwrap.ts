// A PATH with the usual tools but no bwrap: how a machine without bubblewrap looks to ccode.
import { mkdtempSync, symlinkSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

/** A fresh folder of symlinks to bash, coreutils and git; the caller removes it. */
export function pathWithoutBwrap(): string {
  const bin = mkdtempSync(join(tmpdir(), "ccode-nobwrap-"))
  for (const tool of ["bash", "sh", "cat", "touch", "git", "sleep", "env", "sed", "rm", "printf", "cp", "diff"]) {
    const found = Bun.which(tool)
    if (found) symlinkSync(found, join(bin, tool))
  }
  return bin
}
