// Read-only listing tools: list_dir, glob, grep. Results are sorted and capped.
import { readdir, readFile, stat } from "node:fs/promises"
import { join, relative } from "node:path"
import { z } from "zod"
import { defineTool, ToolFailure, type ToolContext } from "../types.ts"
import { BUILTIN_DECLARATIONS } from "./declarations.ts"

const MAX_ENTRIES = 1000
const MAX_MATCHES = 500
const SKIP_DIRS = new Set([".git", "node_modules"])

export const listDirTool = defineTool({
  name: "list_dir",
  description: "List a directory (default: the workspace). Folders end with /.",
  args: z.strictObject({ path: z.string().optional() }),
  risk: "safe",
  idempotent: true,
  ...BUILTIN_DECLARATIONS.list_dir,
  async run(args, ctx) {
    const dir = ctx.paths.resolve(args.path ?? ".", "read")
    const entries = await readdir(dir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") throw new ToolFailure("NOT_FOUND", "not_found", `${args.path ?? "."} does not exist`)
      if (error.code === "ENOTDIR") throw new ToolFailure("NOT_A_DIRECTORY", "param", `${args.path} is not a directory`)
      throw error
    })
    const names = entries.map((e) => (e.isDirectory() ? `${e.name}/` : e.name)).sort()
    const shown = names.slice(0, MAX_ENTRIES)
    const more = names.length > shown.length ? `\n[... ${names.length - shown.length} more]` : ""
    return { text: shown.join("\n") + (shown.length ? "\n" : "") + more, data: { count: names.length } }
  },
})

export const globTool = defineTool({
  name: "glob",
  description: "Find files by glob pattern (e.g. src/**/*.ts) under path (default: the workspace).",
  args: z.strictObject({ pattern: z.string().min(1), path: z.string().optional() }),
  risk: "safe",
  idempotent: true,
  ...BUILTIN_DECLARATIONS.glob,
  async run(args, ctx) {
    const root = ctx.paths.resolve(args.path ?? ".", "read")
    const found = await scan(root, checkPattern(args.pattern, "pattern"), ctx)
    const files = found.files.map((f) => f.name)
    const shown = files.slice(0, MAX_ENTRIES)
    const more = files.length > shown.length ? `\n[... ${files.length - shown.length} more]` : ""
    return { text: shown.join("\n") + (shown.length ? "\n" : "") + more + skippedNote(found.outside), data: { count: files.length } }
  },
})

export const grepTool = defineTool({
  name: "grep",
  description: "Search file contents with a regular expression. Prints file:line:text. glob narrows the files.",
  args: z.strictObject({ pattern: z.string().min(1), path: z.string().optional(), glob: z.string().optional() }),
  risk: "safe",
  idempotent: true,
  ...BUILTIN_DECLARATIONS.grep,
  async run(args, ctx) {
    let regex: RegExp
    try {
      regex = new RegExp(args.pattern)
    } catch (error) {
      throw new ToolFailure("INVALID_PARAM", "param", `pattern is not a valid regular expression: ${(error as Error).message}`)
    }
    const target = ctx.paths.resolve(args.path ?? ".", "read")
    const info = await stat(target).catch(() => undefined)
    if (!info) throw new ToolFailure("NOT_FOUND", "not_found", `${args.path} does not exist`)
    const found = info.isDirectory() ? await scan(target, checkPattern(args.glob ?? "**/*", "glob"), ctx) : { files: [{ name: args.path ?? ".", real: target }], outside: 0 }
    const matches: string[] = []
    for (const { name, real } of found.files) {
      const file = info.isDirectory() ? join(target, name) : target
      const content = await readFile(real, "utf8").catch(() => "")
      if (content.includes("\0")) continue // binary
      const lines = content.split("\n")
      for (let i = 0; i < lines.length && matches.length < MAX_MATCHES; i++) {
        if (regex.test(lines[i]!)) matches.push(`${relative(ctx.cwd, file) || file}:${i + 1}:${lines[i]}`)
      }
      if (matches.length >= MAX_MATCHES) break
    }
    const capped = matches.length >= MAX_MATCHES ? `\n[... stopped at ${MAX_MATCHES} matches]` : ""
    return { text: matches.join("\n") + (matches.length ? "\n" : "") + capped + skippedNote(found.outside), data: { count: matches.length } }
  },
})

// A pattern climbing out (`../x`, `{a,../b}`) or starting elsewhere (`/etc/*`, `~/.ssh/*`) would
// list or read what the path argument's confinement keeps out: refused, whatever the policy.
const CLIMBS = /(?:^|[/{,])\.\.(?:[/},]|$)/

function checkPattern(pattern: string, arg: string): string {
  if (pattern.startsWith("/") || pattern.startsWith("~") || pattern.startsWith("\\") || CLIMBS.test(pattern)) {
    throw new ToolFailure("OUTSIDE_WORKSPACE", "denied", `${arg} "${pattern}" reaches outside the folder searched; give a relative pattern without ".." and set path instead`)
  }
  return pattern
}

interface Found {
  /** matched files: the name relative to the root, and where it really is */
  files: { name: string; real: string }[]
  /** files left out because they resolve outside the workspace (symlinks) */
  outside: number
}

// Every match is resolved through its symlinks and confined like a path argument: a link inside the
// workspace to ~/.ssh/id_rsa is neither listed nor read.
async function scan(root: string, pattern: string, ctx: ToolContext): Promise<Found> {
  const glob = new Bun.Glob(pattern)
  const files: Found["files"] = []
  let outside = 0
  for await (const file of glob.scan({ cwd: root, dot: true, onlyFiles: true, followSymlinks: false })) {
    if (file.split("/").some((part) => SKIP_DIRS.has(part))) continue
    try {
      files.push({ name: file, real: ctx.paths.resolve(join(root, file), "read") })
    } catch (error) {
      if (!(error instanceof ToolFailure)) throw error
      outside++
    }
  }
  files.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  return { files, outside }
}

function skippedNote(outside: number): string {
  return outside ? `[${outside} file${outside > 1 ? "s" : ""} left out: they resolve outside the workspace]\n` : ""
}
