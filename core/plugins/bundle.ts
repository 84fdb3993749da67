// Bundling a plugin file at load time with Bun.build (works inside the compiled binary): npm packages
// in a node_modules next to the plugin resolve, `ccode/plugin` stays the binary's virtual module, and
// every input is read once, hashed and handed to the bundler as read — so the hashes trust checks are
// exactly the code that runs. Bundles are cached by input hashes. Bundling runs none of the plugin's
// code: imports marked as macros (code run at bundle time) are refused.
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { extname, join } from "node:path"
import { sha256 } from "../policy/cache.ts"
import { PLUGIN_MODULE } from "./module.ts"

export interface BundleInput {
  /** absolute path */
  path: string
  /** sha256 of the content the bundle was built from (what `ccode trust` records) */
  hash: string
  size: number
  mtimeMs: number
}

export interface Bundle {
  /** the plugin file */
  entry: string
  /** the bundled module to import */
  file: string
  /** every file that went into it, the entry first */
  inputs: BundleInput[]
  /** taken from the cache (no Bun.build) */
  cached: boolean
}

export class BundleError extends Error {}

const LOADERS: Record<string, "ts" | "tsx" | "js" | "jsx" | "json" | "toml" | "text"> = {
  ".ts": "ts", ".mts": "ts", ".cts": "ts", ".tsx": "tsx", ".js": "js", ".mjs": "js", ".cjs": "js", ".jsx": "jsx",
  ".json": "json", ".toml": "toml", ".txt": "text",
}
// `import x from "./m" with { type: "macro" }` runs ./m while bundling: never for code not yet trusted
const MACRO = /\btype\s*:\s*["'`]macro["'`]/

/** The plugin's bundle: from the cache when no input changed, else built now (and cached). */
export async function bundlePlugin(entry: string, cacheDir: string | undefined): Promise<Bundle> {
  const dir = join(cacheDir ?? processCache(), "plugins")
  const index = join(dir, `${sha256(entry).slice(0, 32)}.json`)
  const cached = readIndex(index, entry)
  if (cached) return cached
  const built = await build(entry)
  mkdirSync(dir, { recursive: true })
  const key = sha256(built.inputs.map((i) => `${i.path}\0${i.hash}`).join("\n")).slice(0, 32)
  const file = join(dir, `${key}.js`)
  writeAtomic(file, built.code)
  const bundle: Bundle = { entry, file, inputs: built.inputs, cached: false }
  writeAtomic(index, JSON.stringify({ entry, file, inputs: built.inputs }))
  return bundle
}

// The cached bundle when every input is unchanged: same size and mtime, else same content hash.
function readIndex(index: string, entry: string): Bundle | undefined {
  let saved: { entry: string; file: string; inputs: BundleInput[] }
  try {
    saved = JSON.parse(readFileSync(index, "utf8"))
  } catch {
    return undefined
  }
  if (saved.entry !== entry || !Array.isArray(saved.inputs) || !saved.inputs.length) return undefined
  for (const input of saved.inputs) {
    const st = statSync(input.path, { throwIfNoEntry: false })
    if (!st?.isFile()) return undefined
    if (st.size === input.size && st.mtimeMs === input.mtimeMs) continue
    // touched but maybe not changed; a changed file means a new bundle
    if (st.size !== input.size || hashOf(input.path) !== input.hash) return undefined
  }
  if (!statSync(saved.file, { throwIfNoEntry: false })?.isFile()) return undefined
  return { entry, file: saved.file, inputs: saved.inputs, cached: true }
}

async function build(entry: string): Promise<{ code: string; inputs: BundleInput[] }> {
  const inputs = new Map<string, BundleInput>()
  const result = await Bun.build({
    entrypoints: [entry],
    target: "bun",
    format: "esm",
    external: [PLUGIN_MODULE],
    throw: false,
    plugins: [{
      name: "ccode-plugin-inputs",
      setup(b) {
        b.onLoad({ filter: /.*/, namespace: "file" }, (args) => {
          const loader = LOADERS[extname(args.path)]
          if (!loader) throw new BundleError(`cannot load ${args.path}: plugins may import .ts, .js, .json and .toml files`)
          const content = readFileSync(args.path)
          const text = content.toString("utf8")
          if (loader !== "json" && loader !== "toml" && loader !== "text" && MACRO.test(text)) {
            throw new BundleError(`${args.path} imports a macro (code run while bundling); plugins may not use macros`)
          }
          const st = statSync(args.path)
          inputs.set(args.path, { path: args.path, hash: sha256(text), size: st.size, mtimeMs: st.mtimeMs })
          return { contents: text, loader }
        })
      },
    }],
  })
  if (!result.success || !result.outputs[0]) {
    const messages = result.logs.map((l) => String((l as { message?: string }).message ?? l)).filter(Boolean)
    throw new BundleError(messages.join("; ") || "the bundler gave no output")
  }
  const ordered = [...inputs.values()].sort((a, b) => (a.path === entry ? -1 : b.path === entry ? 1 : a.path < b.path ? -1 : 1))
  return { code: await result.outputs[0].text(), inputs: ordered }
}

let ownTemp: string | undefined

// without a cache folder (tests, embedding): a fresh one for this process only — a shared folder in
// the temp dir could be planted by another user with a bundle that would then be imported
function processCache(): string {
  if (!ownTemp) {
    const dir = mkdtempSync(join(tmpdir(), "ccode-plugins-"))
    process.once("exit", () => rmSync(dir, { recursive: true, force: true }))
    ownTemp = dir
  }
  return ownTemp
}

function hashOf(path: string): string {
  try {
    return sha256(readFileSync(path, "utf8"))
  } catch {
    return ""
  }
}

// another ccode process may read the cache at the same moment: never a half-written file
function writeAtomic(file: string, content: string): void {
  const tmp = `${file}.${process.pid}.tmp`
  writeFileSync(tmp, content)
  renameSync(tmp, file)
}
