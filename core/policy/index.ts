// Public face of the policy engine. Light on purpose: nothing here loads YAML or zod (parse.ts and
// schema.ts are imported lazily, on a cache miss), so hot paths like `ccode hook` stay fast.
export { decide } from "./decide.ts"
export { grantFor, grantCovers } from "./grants.ts"
export { loadPolicy, loadPolicyFile, taskPolicyLayers } from "./load.ts"
export type { LoadOptions, LoadedPolicy, IsTrusted, Trust, TaskPolicyInput } from "./load.ts"
export { prepareCall, type PrepareContext } from "./prepare.ts"
export { findWorkspaceRoot, trustableFiles, workspacePolicyFiles, userPolicyFile } from "./workspace.ts"
export { mergePolicy } from "./merge.ts"
export { bundledLayer, isBundledName } from "./bundled.ts"
export { envLayer, flagsLayer, type PolicyFlags } from "./env.ts"
export { fallbackPolicy } from "./defaults.ts"
export type { Layer, BundledName } from "./layer.ts"
export type * from "./types.ts"

/** A layer from an already validated `policy:` value (the task loader's path); loads YAML/zod lazily. */
export async function layerFromValue(...args: Parameters<typeof import("./parse.ts").layerFromValue>) {
  return (await import("./parse.ts")).layerFromValue(...args)
}

/** Every failing example of a policy layer's rules (empty: all pass). */
export async function runExamples(...args: Parameters<typeof import("./examples.ts").runExamples>) {
  return (await import("./examples.ts")).runExamples(...args)
}
