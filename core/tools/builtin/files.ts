// File tools: read_file, write_file, edit_file. Paths are confined to the workspace by ctx.paths.
import { mkdir, readFile, stat, writeFile } from "node:fs/promises"
import { dirname } from "node:path"
import { z } from "zod"
import { defineTool, ToolFailure } from "../types.ts"
import { BUILTIN_DECLARATIONS } from "./declarations.ts"

export const readFileTool = defineTool({
  name: "read_file",
  description: "Read a text file. offset is the first line (1-based), limit the number of lines.",
  args: z.strictObject({
    path: z.string().min(1),
    offset: z.number().int().positive().optional(),
    limit: z.number().int().positive().optional(),
  }),
  risk: "safe",
  idempotent: true,
  ...BUILTIN_DECLARATIONS.read_file,
  async run(args, ctx) {
    const path = ctx.paths.resolve(args.path, "read")
    const info = await stat(path).catch(() => undefined)
    if (!info) throw new ToolFailure("NOT_FOUND", "not_found", `${args.path} does not exist`)
    if (info.isDirectory()) throw new ToolFailure("IS_DIRECTORY", "param", `${args.path} is a directory; use list_dir`)
    const content = await readFile(path, "utf8")
    const lines = content.split("\n")
    if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop()
    const start = (args.offset ?? 1) - 1
    const slice = lines.slice(start, args.limit ? start + args.limit : undefined)
    const text = slice.join("\n") + (slice.length ? "\n" : "")
    return { text, data: { total_lines: lines.length, from: start + 1, lines: slice.length } }
  },
})

export const writeFileTool = defineTool({
  name: "write_file",
  description: "Write a file (creating parent folders), replacing what was there.",
  args: z.strictObject({ path: z.string().min(1), content: z.string() }),
  risk: "medium",
  idempotent: true, // writing the same content twice leaves the same file
  ...BUILTIN_DECLARATIONS.write_file,
  async run(args, ctx) {
    const path = ctx.paths.resolve(args.path, "write")
    const existed = await stat(path).then((s) => {
      if (s.isDirectory()) throw new ToolFailure("IS_DIRECTORY", "param", `${args.path} is a directory`)
      return true
    }, () => false)
    await mkdir(dirname(path), { recursive: true })
    await writeFile(path, args.content)
    const bytes = Buffer.byteLength(args.content)
    return { text: `${existed ? "wrote" : "created"} ${args.path} (${bytes} bytes)`, data: { bytes, created: !existed } }
  },
})

export const editFileTool = defineTool({
  name: "edit_file",
  description:
    "Replace an exact string in a file. Fails when old_string is missing, or found more than once without replace_all.",
  args: z.strictObject({
    path: z.string().min(1),
    old_string: z.string().min(1),
    new_string: z.string(),
    replace_all: z.boolean().optional(),
  }),
  risk: "medium",
  idempotent: false,
  ...BUILTIN_DECLARATIONS.edit_file,
  async run(args, ctx) {
    const path = ctx.paths.resolve(args.path, "write")
    const content = await readFile(path, "utf8").catch(() => {
      throw new ToolFailure("NOT_FOUND", "not_found", `${args.path} does not exist`)
    })
    const count = content.split(args.old_string).length - 1
    if (count === 0) throw new ToolFailure("NO_MATCH", "param", `old_string was not found in ${args.path}`)
    if (count > 1 && !args.replace_all) {
      throw new ToolFailure("AMBIGUOUS_MATCH", "param", `old_string occurs ${count} times in ${args.path}; add context or set replace_all`)
    }
    const updated = args.replace_all
      ? content.split(args.old_string).join(args.new_string)
      : content.replace(args.old_string, () => args.new_string)
    await writeFile(path, updated)
    return { text: `edited ${args.path} (${count} replacement${count > 1 ? "s" : ""})`, data: { replacements: count } }
  },
})
