// The git commands that give an object a new name: `git update-index --cacheinfo MODE,ID,PATH` (the
// index then holds the blob as PATH), `git notes add|append -C ID` (git log shows the note), `git
// read-tree ID`, `git replace`, `update-ref`, `tag` naming an object, and those that take object ids from their input (`git mktree`, `update-index
// --index-info`). A committed .env's blob re-homed as leak.txt is printed by a read nothing flags, so
// the ids are marked for the caller to look up on disk (core/policy/gitcontent.ts) as the blob's
// names. Pure.
import type { Part } from "./part.ts"
import type { GitContent } from "./types.ts"

const RENAMING = new Set(["mktree", "update-index", "notes", "replace", "update-ref", "tag", "read-tree"])

/** What a git part hands over by object id to be named anew, or undefined when it names none. */
export function renamedObjects(part: Part, sub: string): GitContent | undefined {
  // every other subcommand names none: its words are not copied
  if (!RENAMING.has(sub)) return undefined
  const words = part.words.slice((part.git?.sub ?? 1) + 1).map((w) => w.value)
  const ids: string[] = []
  if (sub === "mktree") return { blobs: [], renames: "mktree", input: true }
  if (sub === "update-index") {
    for (let i = 0; i < words.length; i++) {
      const v = words[i]
      if (v === undefined) continue
      // parse-options takes a unique prefix (`--cachei`, `--index-i`)
      if (/^--index-i/.test(v)) return { blobs: [], renames: "update-index --index-info", input: true }
      if (!/^--cachei/.test(v)) continue
      const eq = v.indexOf("=")
      const value = eq >= 0 ? v.slice(eq + 1) : words[i + 1]
      if (value === undefined) return { blobs: [], renames: "update-index --cacheinfo", input: true }
      // MODE,ID,PATH in one word, or the old MODE ID PATH
      const id = value.includes(",") ? value.split(",")[1] : words[i + 2]
      if (id === undefined) return { blobs: [], renames: "update-index --cacheinfo", input: true }
      ids.push(id)
    }
    return named(ids, "update-index --cacheinfo")
  }
  if (sub === "notes") {
    const action = words.find((v) => v === undefined || !v.startsWith("-"))
    if (action !== "add" && action !== "append") return undefined
    for (let i = 0; i < words.length; i++) {
      const v = words[i]
      if (v === undefined) continue
      const m = /^(?:-[cC]|--re(?:use|edit)-message(?:=|$))(.*)$/.exec(v)
      if (!m) continue
      const value = m[1] || (v.endsWith("=") ? "" : words[++i])
      if (value === undefined) return { blobs: [], renames: `notes ${action} -C`, input: true }
      ids.push(value)
    }
    return named(ids, `notes ${action} -C`)
  }
  // `git replace OBJ BLOB` (a read of OBJ prints BLOB), `git update-ref REF ID`, `git tag NAME ID`:
  // a ref or a replacement naming the object (a blob no commit holds is then shown by `git show NAME`)
  if (sub === "replace" || sub === "update-ref" || sub === "tag") {
    if (words.some((v) => v !== undefined && /^-[a-zA-Z]*[dlv]$|^--(?:delete|list|verify|stdin|edit|graft|convert-graft-file)$/.test(v))) return undefined
    const ops: (string | undefined)[] = []
    for (let i = 0; i < words.length; i++) {
      const v = words[i]
      // a message, file, key or format option's value is the next word
      if (v !== undefined && /^-[mFu]$|^--(?:message|file|local-user|format|cleanup)$/.test(v)) i++
      else if (v === undefined || !v.startsWith("-")) ops.push(v)
    }
    if (ops.length < 2) return undefined
    if (ops.includes(undefined)) return { blobs: [], renames: sub, input: true }
    return named(sub === "update-ref" || sub === "tag" ? [ops[1]!] : (ops as string[]), sub)
  }
  if (sub === "read-tree") {
    for (const v of words) {
      if (v === undefined) return { blobs: [], renames: "read-tree", input: true }
      if (!v.startsWith("-")) ids.push(v)
    }
    return named(ids, "read-tree")
  }
  return undefined
}

// every name is looked up (a tag can name a blob); `REV:path` names its file, judged by touched.ts
function named(ids: string[], how: string): GitContent | undefined {
  const names = ids.filter((v) => v !== "" && !v.includes(":") && !v.startsWith("-"))
  return names.length ? { blobs: names, renames: how } : undefined
}
