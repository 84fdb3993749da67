// A throwaway workspace for snapshot tests: a temp dir with a work tree of `files` and a CCODE_HOME
// beside it; the caller removes `root` (collected in `roots`).
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

export function tempWorkspace(prefix: string, roots: string[], files: Record<string, string>): { root: string; work: string; home: string } {
  const root = mkdtempSync(join(tmpdir(), prefix))
  roots.push(root)
  const work = join(root, "work")
  mkdirSync(work)
  for (const [path, content] of Object.entries(files)) writeFileSync(join(work, path), content)
  return { root, work, home: join(root, "home") }
}
