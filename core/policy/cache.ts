// Parsed policy files cached as JSON under $CCODE_HOME/cache/policy, keyed by path, content hash and
// ccode version, so a run that finds the same file again loads no YAML or zod. Best effort: any
// cache problem just means parsing again. Reads and writes the fs.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import pkg from "../../package.json" with { type: "json" }
import { sha256 } from "../base/hash.ts"
import type { Layer } from "./layer.ts"

const FORMAT = 1

function entryPath(cacheDir: string, file: string, hash: string): string {
  return join(cacheDir, "policy", `${sha256(`${FORMAT}\0${pkg.version}\0${file}\0${hash}`).slice(0, 40)}.json`)
}

export function readCachedLayer(cacheDir: string | undefined, file: string, hash: string): Layer | undefined {
  if (!cacheDir) return undefined
  try {
    const layer = JSON.parse(readFileSync(entryPath(cacheDir, file, hash), "utf8")) as Layer
    return layer.sha256 === hash && layer.file === file ? layer : undefined
  } catch {
    return undefined
  }
}

export function writeCachedLayer(cacheDir: string | undefined, layer: Layer): void {
  if (!cacheDir || !layer.file || !layer.sha256) return
  try {
    const target = entryPath(cacheDir, layer.file, layer.sha256)
    mkdirSync(join(cacheDir, "policy"), { recursive: true })
    const tmp = `${target}.${process.pid}.tmp`
    writeFileSync(tmp, JSON.stringify(layer))
    renameSync(tmp, target)
  } catch {
    // a read-only or full disk must not stop a run; the file is parsed again next time
  }
}
