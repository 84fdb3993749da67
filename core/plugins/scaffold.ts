// The files `ccode init` writes: a workspace policy, an example plugin with the `ccode/plugin` types
// and a tsconfig so editors type-check plugins with nothing installed, and a sample task. Pure data.
// @ts-expect-error -- a declaration file, embedded as text by the bundler
import pluginTypes from "../../plugins/ccode-plugin.d.ts" with { type: "text" }
import examplePlugin from "../../plugins/example.ts" with { type: "text" }

export interface ScaffoldFile {
  /** relative to the workspace root */
  path: string
  content: string
  /** recorded with `ccode trust` once written: ccode wrote it, so its grants may apply */
  trust: boolean
}

const PLUGIN_TSCONFIG = `${JSON.stringify(
  {
    // editors only: ccode loads plugins itself; this makes \`import ... from "ccode/plugin"\` type-check
    compilerOptions: {
      target: "ESNext",
      module: "Preserve",
      moduleResolution: "bundler",
      lib: ["ESNext", "DOM"],
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      allowImportingTsExtensions: true,
    },
    include: ["*.ts"],
  },
  null,
  2,
)}\n`

const POLICY = `# The policy of this workspace: every \`ccode\` run here obeys it.
# \`ccode policy show\` prints the merged result; \`ccode policy test\` runs the examples below.
# Edited? It is untrusted again until \`ccode trust\` (an untrusted file can only restrict).
version: 1
extends: default
rules:
  - id: tests-ok
    tool: shell
    command: ["bun test *", "npm test *", "npm run test*"]
    decision: allow
    examples: { match: ["bun test", "npm run test:unit"], no_match: ["npm publish"] }
  - id: no-force-push
    tool: shell
    command: "git push --force *"
    decision: deny
    reason: force pushes rewrite shared history
    examples: { match: ["git push --force origin main"], no_match: ["git push origin main"] }
  - id: local-waits-ok
    tool: wait_for_url            # the example plugin in .ccode/plugins/example.ts
    args: { url: "^http://(localhost|127\\\\.0\\\\.0\\\\.1)[:/]" }
    decision: allow
`

const TASK = `# A sample task: \`ccode run .ccode/tasks/example.yaml\` (add --json for an event stream).
version: 1
name: example
workdir: ../..
steps:
  - id: look
    run: ls -la
  - id: tools
    run: 'echo "edit .ccode/plugins/example.ts, then: ccode plugins check .ccode/plugins/example.ts"'
    needs: [look]
  # a plugin tool is a step like any other:
  # - id: wait
  #   tool: wait_for_url
  #   with: { url: "http://localhost:3000/" }
`

export function scaffoldFiles(): ScaffoldFile[] {
  return [
    { path: ".ccode/policy.yaml", content: POLICY, trust: true },
    { path: ".ccode/plugins/example.ts", content: String(examplePlugin), trust: true },
    { path: ".ccode/plugins/ccode-plugin.d.ts", content: String(pluginTypes), trust: false },
    { path: ".ccode/plugins/tsconfig.json", content: PLUGIN_TSCONFIG, trust: false },
    { path: ".ccode/tasks/example.yaml", content: TASK, trust: false },
  ]
}
