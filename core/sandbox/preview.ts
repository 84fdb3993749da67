// Preview, confirm, commit: a call runs against a scratch copy of the workspace; what it changed
// is listed and diffed; approving applies exactly that change to the real workspace, and nothing
// else (a file that changed meanwhile in the workspace refuses the apply). I/O at the edge: copies and walks.
import { closeSync, constants, existsSync, fchmodSync, fstatSync, lstatSync, mkdirSync, openSync, readFileSync, readdirSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { OutsideRoot, withParent, type OpenDir } from "../base/beneath.ts"

export interface Change {
  path: string
  kind: "added" | "changed" | "deleted"
  /** sha256 of the workspace's file when the preview started (changed/deleted), to refuse applying over an edit */
  base?: string
  /** sha256 of the scratch copy's file that was shown (added/changed): exactly these bytes are applied */
  after?: string
}

export interface Preview {
  /** the scratch copy the call ran in */
  scratch: string
  changes: Change[]
  /** unified diff for text files, a line per binary or special file */
  diff: string
}

const MAX_DIFF_BYTES = 200_000

/** A scratch copy of the workspace under `dir` (reflinks where the file system has them). */
export function copyWorkspace(workspace: string, dir: string): string {
  const scratch = join(dir, "ws")
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(scratch, { recursive: true, mode: 0o700 })
  const cp = Bun.spawnSync(["cp", "-a", "--reflink=auto", `${workspace}/.`, `${scratch}/`], { stderr: "pipe" })
  if (cp.exitCode !== 0) throw new Error(`could not copy the workspace for a preview: ${cp.stderr.toString().trim()}`)
  return scratch
}

/** What differs between the workspace and the scratch copy the call ran in. */
export function previewOf(workspace: string, scratch: string): Preview {
  const before = walk(workspace)
  const after = walk(scratch)
  const changes: Change[] = []
  for (const [path, kind] of after) {
    const old = before.get(path)
    if (old === undefined) changes.push({ path, kind: "added", after: hashOf(join(scratch, path)) })
    else if (old !== kind || !sameContent(join(workspace, path), join(scratch, path), kind)) changes.push({ path, kind: "changed", base: hashOf(join(workspace, path)), after: hashOf(join(scratch, path)) })
  }
  for (const path of before.keys()) if (!after.has(path)) changes.push({ path, kind: "deleted", base: hashOf(join(workspace, path)) })
  changes.sort((a, b) => a.path.localeCompare(b.path))
  return { scratch, changes, diff: diffOf(workspace, scratch, changes) }
}

/**
 * Apply the preview's changes to the workspace; throws naming the file when the workspace changed under it.
 * Every folder on the way is opened below the workspace without following links (base/beneath.ts): a
 * folder swapped for a symlink since the preview refuses the apply, it never carries a write outside.
 */
export function applyPreview(workspace: string, preview: Preview): void {
  for (const c of preview.changes) {
    let now: string | undefined
    let there = false
    try {
      withParent(workspace, c.path, false, (dir, name) => {
        there = lstatSync(dir.at(name), { throwIfNoEntry: false }) !== undefined
        now = hashOf(dir.at(name))
      })
    } catch (error) {
      if (error instanceof OutsideRoot) throw new Error(`${c.path} is no longer below real folders of the workspace (${error.message}); nothing was applied`)
      throw error
    }
    if (c.base !== undefined && now !== c.base) throw new Error(`${c.path} changed in the workspace since the preview; nothing was applied`)
    if (c.kind === "added" && there) throw new Error(`${c.path} appeared in the workspace since the preview; nothing was applied`)
    if (c.kind !== "deleted") sourceOf(preview.scratch, c)
  }
  for (const c of preview.changes) {
    try {
      const source = c.kind === "deleted" ? undefined : sourceOf(preview.scratch, c)
      withParent(workspace, c.path, c.kind !== "deleted", (dir, name) => applyOne(dir, name, c, source))
    } catch (error) {
      if (error instanceof OutsideRoot) throw new Error(`${c.path} is no longer below real folders of the workspace (${error.message}); the change was applied only in part`)
      throw error
    }
  }
}

interface Source {
  link?: string
  bytes?: Buffer
  mode: number
}

// the scratch copy's file, read below the scratch folder without following links, and only when it still
// holds the bytes the person was shown
function sourceOf(scratch: string, c: Change): Source {
  const fail = (why: string): never => {
    throw new Error(`${c.path} ${why} in the preview's copy since it was shown; nothing more was applied`)
  }
  if (c.after === undefined) fail("has no recorded content (a preview saved by an older ccode: run the step again)")
  let source: Source | undefined
  try {
    source = withParent(scratch, c.path, false, (dir, name) => {
      const st = lstatSync(dir.at(name))
      if (st.isSymbolicLink()) return { link: readlinkSync(dir.at(name)), mode: st.mode }
      const fd = openSync(dir.at(name), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK)
      try {
        if (!fstatSync(fd).isFile()) fail("is no regular file")
        return { bytes: readFileSync(fd), mode: fstatSync(fd).mode }
      } finally {
        closeSync(fd)
      }
    })
  } catch (error) {
    if (error instanceof OutsideRoot || (error as NodeJS.ErrnoException).code === "ENOENT" || (error as NodeJS.ErrnoException).code === "ELOOP") fail("moved")
    throw error
  }
  if (!source) return fail("moved")
  if (contentHash(source.link !== undefined ? Buffer.from(`link:${source.link}`) : source.bytes!, source.mode) !== c.after) fail("changed")
  return source
}

function applyOne(dir: OpenDir, name: string, c: Change, source: Source | undefined): void {
  const target = dir.at(name)
  if (lstatSync(target, { throwIfNoEntry: false })?.isDirectory()) throw new Error(`${c.path} is a folder in the workspace now; the change was applied only in part`)
  rmSync(target, { force: true })
  if (!source) return
  if (source.link !== undefined) return symlinkSync(source.link, target)
  // created here, never opened through a link that appeared meanwhile
  const fd = openSync(target, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600)
  try {
    writeFileSync(fd, source.bytes!)
    fchmodSync(fd, source.mode & 0o7777)
  } finally {
    closeSync(fd)
  }
}

export function savePreview(dir: string, preview: Preview, result: unknown): void {
  writeFileSync(join(dir, "preview.json"), JSON.stringify({ preview, result }))
}

export function loadPreview(dir: string): { preview: Preview; result: unknown } | undefined {
  const file = join(dir, "preview.json")
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as { preview: Preview; result: unknown }) : undefined
}

type Kind = "file" | "link" | "dir"

// files and symlinks by relative path (folders only matter through what is in them)
function walk(root: string): Map<string, Kind> {
  const out = new Map<string, Kind>()
  const visit = (rel: string) => {
    for (const entry of readdirSync(join(root, rel), { withFileTypes: true })) {
      const path = rel ? `${rel}/${entry.name}` : entry.name
      if (entry.isDirectory()) visit(path)
      else out.set(path, entry.isSymbolicLink() ? "link" : "file")
    }
  }
  visit("")
  return out
}

function sameContent(a: string, b: string, kind: Kind): boolean {
  if (kind === "link") return readlinkSync(a) === readlinkSync(b)
  const sa = lstatSync(a)
  const sb = lstatSync(b)
  if (sa.size !== sb.size || (sa.mode & 0o111) !== (sb.mode & 0o111)) return false
  return readFileSync(a).equals(readFileSync(b))
}

function hashOf(path: string): string | undefined {
  try {
    const st = lstatSync(path)
    const bytes = st.isSymbolicLink() ? Buffer.from(`link:${readlinkSync(path)}`) : readFileSync(path)
    return contentHash(bytes, st.mode)
  } catch {
    return undefined
  }
}

// a file's bytes (a link's target) and its executable bits
function contentHash(bytes: Buffer, mode: number): string {
  return new Bun.CryptoHasher("sha256").update(bytes).update(String(mode & 0o111)).digest("hex")
}

function diffOf(workspace: string, scratch: string, changes: Change[]): string {
  const parts: string[] = []
  let size = 0
  for (const c of changes) {
    if (size > MAX_DIFF_BYTES) {
      parts.push(`... ${changes.length - parts.length} more changed files not shown`)
      break
    }
    const old = c.kind === "added" ? "/dev/null" : join(workspace, c.path)
    const neu = c.kind === "deleted" ? "/dev/null" : join(scratch, c.path)
    const text = isText(old) && isText(neu)
      ? Bun.spawnSync(["diff", "-u", "--label", c.kind === "added" ? "/dev/null" : `a/${c.path}`, "--label", c.kind === "deleted" ? "/dev/null" : `b/${c.path}`, old, neu]).stdout.toString()
      : `${c.kind} ${c.path} (binary or special file)\n`
    parts.push(text || `${c.kind} ${c.path} (mode only)\n`)
    size += text.length
  }
  return parts.join("")
}

function isText(path: string): boolean {
  if (path === "/dev/null") return true
  try {
    const st = lstatSync(path)
    if (!st.isFile()) return false
    return !readFileSync(path).subarray(0, 8000).includes(0)
  } catch {
    return false
  }
}
