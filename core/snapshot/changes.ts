// Files a run changed, from its first and last snapshots (covers shell steps too). Read only.
import { findWorkspace, openShadow } from "./repo.ts"

/**
 * Paths that differ between the run's first and last snapshots (`rows`, in order, from either store);
 * undefined when the run has none to compare, or this machine does not hold them.
 */
export async function filesChangedByRun(rows: readonly { ref: string }[], workdir: string, home: string): Promise<string[] | undefined> {
  if (!rows.length) return undefined
  const first = rows[0]!.ref
  const last = rows.at(-1)!.ref
  if (first === last) return []
  const workspace = findWorkspace(home, workdir, first)
  if (!workspace) return undefined
  const repo = await openShadow(workspace, home)
  const diff = await repo.git(["diff-tree", "-r", "-z", "--no-renames", "--name-only", first, last])
  return diff.stdout.split("\0").filter(Boolean).sort()
}
