// The OS sandbox (bubblewrap) that shell calls run in: see docs/sandbox.md.
export { sandboxStatus, runSandbox, sandboxed, SandboxUnavailable, type Sandbox, type SandboxStatus } from "./session.ts"
export { bwrapArgv } from "./args.ts"
export { sandboxLayout } from "./layout.ts"
export { blockedBySandbox } from "./blocked.ts"
export { probeSandbox, INSTALL_HINT } from "./probe.ts"
export type { SandboxLayout, SandboxProbe } from "./types.ts"
