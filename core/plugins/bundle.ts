// Bundling a plugin file at load time with Bun.build (works inside the compiled binary): npm packages
// in a node_modules next to the plugin resolve, `ccode/plugin` stays the binary's virtual module, and
// bundles are cached by their inputs' hashes. Two passes, so no code runs before it is trusted:
// the first bundles a skeleton of each file (only its import list, as Bun.Transpiler.scanImports
// reads it) to learn every input and hash it; only when the caller trusts all of them does the
// second pass bundle the real text — checked to be the text that was hashed. (Bun runs macros —
// `with { type: "macro" }`, `macro:` specifiers — while bundling; the skeleton has none.)
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { extname, join } from "node:path"
import { sha256 } from "../base/hash.ts"
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
  /** the bundled module to import; undefined when some input was not trusted (nothing was built) */
  file?: string
  /** every file that went into it, the entry first */
  inputs: BundleInput[]
  /** taken from the cache (no Bun.build) */
  cached: boolean
  /** inputs the trust check refused (then there is no file) */
  untrusted?: string[]
}

export type InputTrusted = (path: string, sha256: string) => boolean

export class BundleError extends Error {}

const LOADERS: Record<string, "ts" | "tsx" | "js" | "jsx" | "json" | "toml" | "text"> = {
  ".ts": "ts", ".mts": "ts", ".cts": "ts", ".tsx": "tsx", ".js": "js", ".mjs": "js", ".cjs": "js", ".jsx": "jsx",
  ".json": "json", ".toml": "toml", ".txt": "text",
}
const MAX_INPUT_BYTES = 20_000_000
const TEXT_LOADERS = new Set(["json", "toml", "text"])

/**
 * The plugin's bundle: from the cache when no input changed, else built now (and cached) — but
 * only when `trusted` (if given) accepts every input; otherwise the inputs it refused, and no file.
 */
export async function bundlePlugin(entry: string, cacheDir: string | undefined, trusted?: InputTrusted): Promise<Bundle> {
  const dir = join(cacheDir ?? processCache(), "plugins")
  const index = join(dir, `${sha256(entry).slice(0, 32)}.json`)
  const cached = readIndex(index, entry)
  if (cached) return cached
  const inputs = await pluginInputs(entry)
  const untrusted = trusted ? inputs.filter((i) => !trusted(i.path, i.hash)).map((i) => i.path) : []
  if (untrusted.length) return { entry, inputs, cached: false, untrusted }
  const code = await build(entry, inputs)
  mkdirSync(dir, { recursive: true })
  const key = sha256(inputs.map((i) => `${i.path}\0${i.hash}`).join("\n")).slice(0, 32)
  const file = join(dir, `${key}.js`)
  writeAtomic(file, code)
  writeAtomic(index, JSON.stringify({ entry, file, inputs }))
  return { entry, file, inputs, cached: false }
}

/** Every file the plugin's bundle would be built from, hashed, the entry first. Runs none of them. */
export async function pluginInputs(entry: string): Promise<BundleInput[]> {
  const inputs = new Map<string, BundleInput>()
  const scanners = new Map<string, Bun.Transpiler>()
  await bundle(entry, (path) => {
    const { text, loader, input } = readInput(path)
    inputs.set(path, input)
    if (TEXT_LOADERS.has(loader)) return { contents: text, loader }
    let scanner = scanners.get(loader)
    if (!scanner) scanners.set(loader, (scanner = new Bun.Transpiler({ loader: loader as "ts" | "tsx" | "js" | "jsx" })))
    const imports = scanner.scanImports(text)
    const macro = imports.find((i) => i.path.startsWith("macro:"))
    if (macro) throw new BundleError(`${path} imports the macro ${macro.path} (code run while bundling); plugins may not use macros`)
    // the skeleton: what the file imports, nothing it does (no attributes, so no macro runs)
    const skeleton = imports.map((i) => (i.kind === "require-call" || i.kind === "require-resolve" ? `require(${JSON.stringify(i.path)});` : `import ${JSON.stringify(i.path)};`))
    return { contents: skeleton.join("\n"), loader: "js" }
  })
  return [...inputs.values()].sort((a, b) => (a.path === entry ? -1 : b.path === entry ? 1 : a.path < b.path ? -1 : 1))
}

// The real build: every file must be one the first pass hashed, with the same content.
async function build(entry: string, inputs: BundleInput[]): Promise<string> {
  const known = new Map(inputs.map((i) => [i.path, i.hash]))
  return bundle(entry, (path) => {
    const { text, loader, input } = readInput(path)
    if (known.get(path) !== input.hash) throw new BundleError(`${path} changed while the plugin was loading (or was not among its inputs); load it again`)
    return { contents: text, loader }
  })
}

type Loaded = { contents: string; loader: "ts" | "tsx" | "js" | "jsx" | "json" | "toml" | "text" }

async function bundle(entry: string, load: (path: string) => Loaded): Promise<string> {
  let failure: unknown
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
          try {
            return load(args.path)
          } catch (error) {
            failure ??= error
            throw error
          }
        })
      },
    }],
  })
  if (failure) throw failure
  if (!result.success || !result.outputs[0]) {
    const messages = result.logs.map((l) => String((l as { message?: string }).message ?? l)).filter(Boolean)
    throw new BundleError(messages.join("; ") || "the bundler gave no output")
  }
  return result.outputs[0].text()
}

// A regular file of a sane size (a link to /dev/zero or a fifo would hang the load), read once.
function readInput(path: string): { text: string; loader: Loaded["loader"]; input: BundleInput } {
  const loader = LOADERS[extname(path)]
  if (!loader) throw new BundleError(`cannot load ${path}: plugins may import .ts, .js, .json and .toml files`)
  const st = statSync(path)
  if (!st.isFile() || st.size > MAX_INPUT_BYTES) throw new BundleError(`cannot load ${path}: not a regular file of at most ${MAX_INPUT_BYTES / 1e6} MB`)
  const text = readFileSync(path, "utf8")
  return { text, loader, input: { path, hash: sha256(text), size: st.size, mtimeMs: st.mtimeMs } }
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
