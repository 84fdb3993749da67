// The shadow repository of one workspace: a separate GIT_DIR under $CCODE_HOME/snapshots with the
// workspace as its work tree. Never touches the user's .git; every git call goes through safeGit,
// with no global or system config, so nothing the user or the repository configures is run.
import { appendFileSync, existsSync, mkdirSync, readFileSync, realpathSync, statSync, rmSync, writeFileSync } from "node:fs"
import { dirname, join, relative, sep } from "node:path"
import { safeGit, type GitResult } from "../git/safe-git.ts"
import { processesWithEnv } from "../tools/process/table.ts"
import { objectWriter, type ObjectWriter } from "./objects.ts"
import { seedFromUserRepo } from "./seed.ts"

export interface ShadowRepo {
  gitDir: string
  workspace: string
  /** objects ccode writes itself (no git process), one pack per snapshot */
  objects: ObjectWriter
  git(args: string[], opts?: { input?: string | Uint8Array; check?: boolean; env?: Record<string, string | undefined> }): Promise<GitResult>
}

export class SnapshotError extends Error {}

// Appended after `git init`'s probed values (a later value wins): content goes in and comes out
// byte for byte, modes and symlinks kept, nothing runs or collects garbage by itself.
const CONFIG = `[core]
\tbare = false
\tfilemode = true
\tautocrlf = false
\tsafecrlf = false
\tsymlinks = true
\tquotepath = false
\tlogallrefupdates = false
[gc]
\tauto = 0
[advice]
\taddEmbeddedRepo = false
`
// $GIT_DIR/info/attributes outranks every .gitattributes in the work tree: no eol or encoding
// conversion, no filter, no ident expansion, whatever the workspace says.
const ATTRIBUTES = "* -text -filter -ident -working-tree-encoding\n"

const IDENTITY = {
  GIT_AUTHOR_NAME: "ccode", GIT_AUTHOR_EMAIL: "ccode@localhost",
  GIT_COMMITTER_NAME: "ccode", GIT_COMMITTER_EMAIL: "ccode@localhost",
}

/** Where the shadow repository of a workspace lives. */
export function shadowDir(home: string, workspace: string): string {
  return join(home, "snapshots", new Bun.CryptoHasher("sha256").update(workspace).digest("hex").slice(0, 16))
}

/** The workspace root whose shadow repository holds `ref`: the run's workdir or a folder above it. */
export function findWorkspace(home: string, workdir: string, ref: string): string | undefined {
  if (!existsSync(workdir)) return undefined
  for (let dir = realpathSync(workdir); ; dir = dirname(dir)) {
    if (holdsSnapshot(home, dir, ref)) return dir
    if (dirname(dir) === dir) return undefined
  }
}

/** Does the shadow repository of `workspace` (its real path) under `home` hold the snapshot `ref`? */
export function holdsSnapshot(home: string, workspace: string, ref: string): boolean {
  return existsSync(workspace) && existsSync(join(shadowDir(home, realpathSync(workspace)), "refs", "ccode", "snapshots", ref))
}

/** Open (creating on first use) the shadow repository of `workspace`; `exclude` are absolute paths kept out of it. */
export async function openShadow(workspace: string, home: string, exclude?: string[]): Promise<ShadowRepo> {
  const root = realpathSync(workspace)
  const gitDir = shadowDir(home, root)
  const repo: ShadowRepo = {
    gitDir,
    workspace: root,
    objects: objectWriter(gitDir),
    git: (args, opts = {}) =>
      withIndexLock(gitDir, () =>
        safeGit(args, {
          cwd: root, gitDir, workTree: root, filters: [], input: opts.input, check: opts.check ?? true, timeoutMs: 10 * 60_000,
          // no ~/.gitconfig: its autocrlf, excludesFile or filters must not shape what a snapshot holds
          env: { GIT_CONFIG_GLOBAL: "/dev/null", GIT_LITERAL_PATHSPECS: "1", ...IDENTITY, ...opts.env },
        }),
      ),
  }
  if (!existsSync(join(gitDir, "HEAD"))) {
    mkdirSync(gitDir, { recursive: true })
    await repo.git(["init", "-q", "--template="])
    appendFileSync(join(gitDir, "config"), CONFIG)
    writeFileSync(join(gitDir, "workspace"), `${root}\n`)
    await seedFromUserRepo(repo)
  }
  // readers (reports) pass no exclude list and leave the repository's settings as the writers left them
  if (exclude || !existsSync(join(gitDir, "info", "attributes"))) {
    mkdirSync(join(gitDir, "info"), { recursive: true })
    writeIfChanged(join(gitDir, "info", "attributes"), ATTRIBUTES)
    writeIfChanged(join(gitDir, "info", "exclude"), excludeLines(root, [home, ...(exclude ?? [])]))
  }
  return repo
}

/** ccode's own files (its home, its database) when they sit inside the workspace. */
function excludeLines(root: string, paths: string[]): string {
  const lines: string[] = []
  for (const path of paths) {
    const rel = relative(root, path)
    if (!rel || rel.startsWith("..") || rel.startsWith(sep)) continue
    const pattern = `/${rel.split(sep).join("/").replace(/([*?[\\])/g, "\\$1")}`
    lines.push(pattern, `${pattern}-wal`, `${pattern}-shm`, `${pattern}-journal`)
  }
  return lines.length ? `${lines.join("\n")}\n` : ""
}

function writeIfChanged(path: string, content: string): void {
  if (existsSync(path) && readFileSync(path, "utf8") === content) return
  writeFileSync(path, content)
}

const LOCK_RETRIES = 50
const STALE_LOCK_MS = 120_000

/** Two ccode processes snapshotting the same workspace take turns on the shadow index. */
async function withIndexLock(gitDir: string, run: () => Promise<GitResult>): Promise<GitResult> {
  for (let attempt = 0; ; attempt++) {
    try {
      const result = await run()
      // with check: false git's failure comes back as a result, not an error
      if (result.exitCode === 0 || !result.stderr.includes("index.lock") || attempt >= LOCK_RETRIES) return result
      clearStaleLock(gitDir)
      await Bun.sleep(20 + attempt * 10)
    } catch (error) {
      const message = (error as Error).message
      if (!message.includes("index.lock") || attempt >= LOCK_RETRIES) throw error
      clearStaleLock(gitDir)
      await Bun.sleep(20 + attempt * 10)
    }
  }
}

/**
 * A lock left by a killed snapshot never goes away by itself, and would switch undo off for good:
 * it is removed when no live git process works on this shadow repository (every one is started
 * with GIT_DIR=<it>), or when it is older than any snapshot takes.
 */
export function clearStaleLock(gitDir: string): boolean {
  const lock = join(gitDir, "index.lock")
  if (!existsSync(lock)) return false
  const ownerGone = processesWithEnv("GIT_DIR", gitDir).length === 0
  if (!ownerGone && Date.now() - statSync(lock).mtimeMs <= STALE_LOCK_MS) return false
  rmSync(lock, { force: true })
  return true
}
