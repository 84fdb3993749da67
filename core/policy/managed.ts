// The managed layer: an organisation's policy in /etc/ccode (managed.yaml, managed.d/*.yaml) that no
// other layer may loosen, the keys it pins, and the signature checks of layers that must be signed.
// Reads the fs; YAML/zod only when a managed.yaml exists.
import { existsSync, readdirSync, statSync } from "node:fs"
import { dirname, join } from "node:path"
import { sha256 } from "../base/hash.ts"
import type { Layer } from "./layer.ts"
import { isFile } from "./workspace.ts"
import { layerFromText, readPolicyText } from "./read.ts"
// type only: node:crypto (and the Node streams it loads, ~3 ms) is imported when a file must be signed
import type { PublicKey } from "./signature.ts"

export const SYSTEM_MANAGED_DIR = "/etc/ccode"

export interface Managed {
  /** managed.yaml then managed.d/*.yaml (sorted), all trusted */
  layers: Layer[]
  /** pinned keys (managed.yaml `trusted_keys:`) */
  keys: PublicKey[]
  /** where the keys are pinned, for messages */
  pinnedIn: string
  /** workspace policy files must be signed (managed.yaml `policy.require_signed`) */
  requireSigned: boolean
  /** ids of the keys whose signatures the loaded managed.d files carry */
  keyIds: string[]
}

/**
 * The directory of the managed policy. CCODE_MANAGED_DIR (for tests and unusual installs) counts only
 * on a machine with no managed policy in /etc/ccode: an environment variable must not switch off the
 * policy an organisation installed.
 */
export function managedDir(env: Record<string, string | undefined>, systemDir = SYSTEM_MANAGED_DIR): string {
  const override = env.CCODE_MANAGED_DIR?.trim()
  if (!override) return systemDir
  return existsSync(join(systemDir, "managed.yaml")) || existsSync(join(systemDir, "managed.d")) ? systemDir : override
}

// No parse cache here: it lives in the user's own $CCODE_HOME, where an edited entry would replace what
// the signature vouched for. Managed files are parsed every time.
export async function loadManaged(dir: string): Promise<Managed> {
  const main = join(dir, "managed.yaml")
  const managed: Managed = { layers: [], keys: [], pinnedIn: main, requireSigned: false, keyIds: [] }
  if (isFile(main)) {
    await checkOwnership(main, dir === SYSTEM_MANAGED_DIR)
    await loadMain(main, managed)
  }
  for (const file of listYaml(join(dir, "managed.d"))) {
    const { text, keyId } = await verifiedText(file, managed)
    managed.layers.push(await layerFromText(text, file, "managed", () => true))
    if (!managed.keyIds.includes(keyId)) managed.keyIds.push(keyId)
  }
  return managed
}

/**
 * The text of a file that must be signed, once its FILE.sig verifies with a pinned key. The bytes
 * checked are the bytes returned, so the file cannot change between the check and the parse.
 */
export async function verifiedText(file: string, managed: Pick<Managed, "keys" | "pinnedIn">): Promise<{ text: string; keyId: string }> {
  const [{ ConfigError }, { parseSignature, verifyContent }] = await Promise.all([import("../base/yaml.ts"), import("./signature.ts")])
  const fail = (problem: string): never => {
    throw new ConfigError(file, 1, 1, problem)
  }
  const text = await readPolicyText(file)
  const sigFile = `${file}.sig`
  if (!isFile(sigFile)) fail(`not signed: ${sigFile} is missing; this file must be signed with a key pinned in trusted_keys of ${managed.pinnedIn} (ccode policy sign)`)
  let sig
  try {
    sig = parseSignature(await Bun.file(sigFile).text())
  } catch (err) {
    throw new ConfigError(sigFile, 1, 1, (err as Error).message)
  }
  const key = managed.keys.find((k) => k.id === sig.key_id)
  if (!key) fail(`signed by key ${sig.key_id}, which is not pinned in trusted_keys of ${managed.pinnedIn}; refusing to load it`)
  if (!verifyContent(Buffer.from(text, "utf8"), sig, key!)) {
    fail(`signature ${sigFile} (key ${sig.key_id}) does not verify: the file was changed after it was signed; refusing to load it`)
  }
  return { text, keyId: sig.key_id }
}

async function loadMain(file: string, managed: Managed): Promise<void> {
  const [{ parseYaml, validateYaml, positionOf, ConfigError }, { ManagedFile }, { layerFromValue }, { parsePublicKey }] = await Promise.all([
    import("../base/yaml.ts"), import("./managed-schema.ts"), import("./parse.ts"), import("./signature.ts"),
  ])
  const text = await readPolicyText(file)
  const src = parseYaml(text, file)
  const { trusted_keys, policy, ...value } = validateYaml(src, ManagedFile)
  for (const [i, raw] of (trusted_keys ?? []).entries()) {
    const key = parsePublicKey(raw)
    if (!key) {
      const at = positionOf(src, ["trusted_keys", i])
      throw new ConfigError(file, at.line, at.col, `trusted_keys[${i}] is not an Ed25519 public key (expected ed25519:... as \`ccode policy keygen\` prints it)`)
    }
    managed.keys.push(key)
  }
  managed.requireSigned = policy?.require_signed === true
  managed.layers.push(await layerFromValue(value, src, [], { name: "managed", trusted: true, file, sha256: sha256(text) }))
}

// managed.yaml pins the keys: whoever can write it (or replace it through its folder) decides every
// policy on the machine, so it must be writable by its owner only, and in /etc/ccode that owner is root.
async function checkOwnership(file: string, system: boolean): Promise<void> {
  for (const path of [file, dirname(file)]) {
    const st = statSync(path)
    const problem = st.mode & 0o022 ? "is writable by other users" : system && st.uid !== 0 ? "is not owned by root" : undefined
    if (problem) {
      const { ConfigError } = await import("../base/yaml.ts")
      throw new ConfigError(file, 1, 1, `refusing the managed policy: ${path} ${problem} (chown root and chmod go-w it)`)
    }
  }
}

function listYaml(dir: string): string[] {
  try {
    return readdirSync(dir).filter((n) => n.endsWith(".yaml")).sort().map((n) => join(dir, n)).filter(isFile)
  } catch {
    return []
  }
}
