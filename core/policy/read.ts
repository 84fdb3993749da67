// A policy file's text -> a Layer, through the parse cache. Shared by every loader (user, workspace,
// task, managed) so a file is parsed one way only. Reads the fs; YAML/zod only on a cache miss.
import type { Layer } from "./layer.ts"
import type { LayerName } from "./types.ts"
import { sha256 } from "../base/hash.ts"
import { readCachedLayer, writeCachedLayer } from "./cache.ts"
import { readRegular } from "../base/readsafe.ts"

/** The layer of `text` (read from `file`); `trusted` decides on its content hash. */
export async function layerFromText(
  text: string, file: string, name: LayerName, trusted: (file: string, hash: string) => boolean, cacheDir?: string,
): Promise<Layer> {
  const hash = sha256(text)
  const isTrusted = trusted(file, hash)
  const cached = readCachedLayer(cacheDir, file, hash)
  if (cached) return { ...cached, name, trusted: isTrusted }
  const { parsePolicy } = await import("./parse.ts")
  const layer = await parsePolicy(text, file, { name, trusted: isTrusted, file, sha256: hash })
  writeCachedLayer(cacheDir, layer)
  return layer
}

/** A policy file's text, or a configuration error naming it. */
export async function readPolicyText(file: string): Promise<string> {
  try {
    return readRegular(file)
  } catch (err) {
    const { ConfigError } = await import("../base/yaml.ts")
    throw new ConfigError(file, 1, 1, `cannot read policy file: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`)
  }
}
