// The `ccode/plugin` virtual module a plugin imports (defineTool, z, ToolFailure), registered with
// Bun's runtime plugin API so plugin files work with the compiled binary and no node_modules.
import { z } from "zod"
import { defineTool, ToolFailure } from "../tools/types.ts"

export const PLUGIN_MODULE = "ccode/plugin"

let registered = false

/** Register the virtual module once per process; later imports of plugin files resolve it. */
export function registerPluginModule(): void {
  if (registered) return
  registered = true
  const api = { defineTool, z, ToolFailure }
  Bun.plugin({
    name: "ccode-plugin-api",
    setup(build) {
      build.module(PLUGIN_MODULE, () => ({ exports: { ...api, default: api }, loader: "object" }))
    },
  })
}
