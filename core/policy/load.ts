// Loading the effective policy for a directory: the managed layer, then the six layers (bundled, user,
// workspace, task, env, flags), trust per file content (injected, so no database here), cached parsing.
// Reads the fs; YAML/zod only on a cache miss.
import { dirname, isAbsolute, resolve } from "node:path"
import type { Policy, LayerName } from "./types.ts"
import type { PolicyFile } from "./schema.ts"
import type { YamlSource } from "../base/yaml.ts"
import { bundledFingerprint, bundledLayer, bundledPolicy, isBundledName } from "./bundled.ts"
import { mergePolicy } from "./merge.ts"
import { envLayer, flagsLayer, type PolicyFlags } from "./env.ts"
import { findWorkspaceRoot, isFile, userPolicyFile, workspaceLayerRoots, workspacePolicyFiles } from "./workspace.ts"
import { anchorLayer, type Layer } from "./layer.ts"
import { layerFromText, readPolicyText } from "./read.ts"
import { loadManaged, managedDir, verifiedText, type Managed } from "./managed.ts"
import { policyFingerprint } from "./fingerprint.ts"

/** `workspace`: the root the file is trusted for, when not the workspace being loaded (an outer layer) */
export type IsTrusted = (file: string, sha256: string, workspace?: string) => boolean

export interface Trust {
  isTrusted: IsTrusted
  /** --trust: every workspace and task file is trusted for this run */
  trustAll?: boolean
}

export interface LoadOptions extends Trust {
  cwd: string
  home: string
  env: Record<string, string | undefined>
  flags?: PolicyFlags
  /** the task's layers (taskPolicyLayers) */
  task?: Layer[]
  /** $CCODE_HOME/cache; undefined: no caching */
  cacheDir?: string
  /** when the caller already knows it */
  workspace?: string
  /** the managed policy's directory (default: /etc/ccode, or CCODE_MANAGED_DIR where none is installed) */
  managedDir?: string
}

export interface LoadedPolicy {
  policy: Policy
  workspace: string
  /** every layer above the bundled base, lowest first */
  layers: Layer[]
  /** lines to show the user once: ignored grants of untrusted layers, lowered thresholds */
  warnings: string[]
  /** workspace/task files that are not trusted (their grants were ignored) */
  untrusted: string[]
}

export async function loadPolicy(opts: LoadOptions): Promise<LoadedPolicy> {
  const workspace = opts.workspace ?? findWorkspaceRoot(opts.cwd)
  const managed = await loadManaged(opts.managedDir ?? managedDir(opts.env))
  const layers: Layer[] = [...managed.layers]
  const user = userPolicyFile(opts.env, opts.home)
  if (isFile(user)) layers.push(await loadPolicyFile(user, "user", () => true, opts.cacheDir))
  // the repository's layers too, when the workspace is a folder inside it with its own .ccode/
  const roots = workspaceLayerRoots(opts.cwd)
  if (!roots.includes(workspace)) roots.push(workspace)
  for (const root of roots) {
    const trusted = (file: string, hash: string) => opts.trustAll === true || opts.isTrusted(file, hash, root)
    for (const file of workspacePolicyFiles(root)) {
      const layer = managed.requireSigned
        ? await signedWorkspaceLayer(file, managed)
        : await loadPolicyFile(file, "workspace", trusted, opts.cacheDir)
      layers.push(root === workspace ? layer : anchorLayer(layer, root))
    }
  }
  layers.push(...(opts.task ?? []))
  const env = await envLayer(opts.env)
  if (env.layer) layers.push(env.layer)
  for (const ref of opts.flags?.policy ?? []) layers.push(await flagPolicyLayer(ref, opts.cwd, opts.cacheDir))
  const flags = await flagsLayer(opts.flags ?? {})
  if (flags.layer) layers.push(flags.layer)
  // nothing but the bundled default: skip merging it again at startup (the hook runs on every call)
  const policy = layers.length ? mergePolicy(layers, bundledLayer) : bundledPolicy("default")
  if (managed.keyIds.length) policy.managed_keys = managed.keyIds
  // the bundled default as it is: its fingerprint was computed when the code was bundled
  policy.fingerprint = layers.length || managed.keyIds.length ? policyFingerprint(policy) : bundledFingerprint("default")
  return {
    policy,
    workspace,
    layers,
    warnings: [...env.warnings, ...flags.warnings, ...policy.ignored],
    untrusted: layers.filter((l) => !l.trusted && l.file).map((l) => l.file!),
  }
}

/** One policy file as a layer; trust is decided on the content actually read. */
export async function loadPolicyFile(
  file: string, name: LayerName, trusted: (file: string, hash: string) => boolean, cacheDir?: string,
): Promise<Layer> {
  return layerFromText(await readPolicyText(file), file, name, trusted, cacheDir)
}

export interface TaskPolicyInput {
  /** the task file (absolute) */
  file: string
  /** the hash of the text that was parsed (for the trust check): never a second read of the file */
  sha256: string
  src: YamlSource
  /** where `policy:` sits in the task document */
  prefix?: PropertyKey[]
  /** the validated `policy:` value: an inline policy, a path, or paths relative to the task file */
  value: PolicyFile | string | string[]
}

/** The task layer(s): an inline `policy:` (trusted with the task file) or the policy files it names. */
export async function taskPolicyLayers(input: TaskPolicyInput, trust: Trust, cacheDir?: string): Promise<Layer[]> {
  const check = trustCheck(trust)
  if (typeof input.value === "string" || Array.isArray(input.value)) {
    const base = dirname(input.file)
    const files = [input.value].flat().map((p) => (isAbsolute(p) ? p : resolve(base, p)))
    return Promise.all(files.map((f) => loadPolicyFile(f, "task", check, cacheDir)))
  }
  const hash = input.sha256
  const { layerFromValue } = await import("./parse.ts")
  const layer = await layerFromValue(input.value, input.src, input.prefix ?? ["policy"], {
    name: "task", trusted: check(input.file, hash), file: input.file, sha256: hash,
  })
  return [layer]
}

// The organisation signed it: trusted as signed, and refused (exit 2) when it is not. Not cached: a
// cache entry (user-writable) would replace what the signature vouched for.
async function signedWorkspaceLayer(file: string, managed: Managed): Promise<Layer> {
  const { text } = await verifiedText(file, managed)
  return layerFromText(text, file, "workspace", () => true)
}

// --policy NAME is a bundled policy, --policy FILE a file; both trusted: the user typed them.
async function flagPolicyLayer(ref: string, cwd: string, cacheDir?: string): Promise<Layer> {
  if (isBundledName(ref) && !isFile(resolve(cwd, ref))) return { ...bundledLayer(ref), name: "flags" }
  return loadPolicyFile(resolve(cwd, ref), "flags", () => true, cacheDir)
}

function trustCheck(trust: Trust): (file: string, hash: string) => boolean {
  return (file, hash) => trust.trustAll === true || trust.isTrusted(file, hash)
}

