// Builds the single binary: `bun run build` -> dist/ccode (or the path given as the first argument).
// Bytecode + minify for startup time; migrations, bundled policies and the bash grammar are embedded.
import { join, resolve } from "node:path"

const root = join(import.meta.dir, "..")
const outfile = resolve(process.argv[2] ?? join(root, "dist", "ccode"))
const pkg = (await Bun.file(join(root, "package.json")).json()) as { version: string }

const result = await Bun.build({
  entrypoints: [join(root, "cli", "main.ts")],
  // A standalone Bun binary reads `.env` and `bunfig.toml` from the directory it starts in, unless told
  // not to: for ccode that is the workspace an agent writes to, where a `.env` could set CCODE_* (a
  // looser approval threshold for the guard itself) and a bunfig.toml `preload` would run its code
  // inside ccode. ccode reads its settings from the real environment and its own files only.
  compile: { outfile, autoloadDotenv: false, autoloadBunfig: false },
  bytecode: true,
  minify: true,
  sourcemap: "none",
  target: "bun",
  format: "esm",
  splitting: true, // each command is its own chunk: `ccode hook` does not load the runner
  define: { CCODE_VERSION: JSON.stringify(pkg.version) },
})
if (!result.success) {
  for (const log of result.logs) console.error(log)
  process.exit(1)
}
console.error(`built ${outfile}`)
