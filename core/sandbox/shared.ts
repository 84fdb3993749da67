// Which calls of a run share one live sandbox (live.ts): a call joins it when its layout is the one
// the sandbox was started with, its mounted paths are still the same files, and no other call is in
// it; otherwise the call starts a bwrap of its own, as every call used to. Started at the second call
// in a row with the same layout (a run of one call, or a preview's scratch copy, never pays for it).
import { endCall, joinTools, layoutIdentity, layoutKey, startLive, type LiveSandbox } from "./live.ts"
import type { ProcessTable, SandboxLayout } from "./types.ts"

export interface SharedSandbox {
  /** the argv prefix that joins the live sandbox and what ends the call in it, or undefined: start a bwrap */
  join(layout: SandboxLayout): { prefix: string[]; release: () => Promise<void> } | undefined
  close(): Promise<void>
}

export function sharedSandbox(hold: string[], processes: ProcessTable | undefined): SharedSandbox {
  // CCODE_SANDBOX_SHARED=0: every call starts its own bwrap (to compare, or where joining misbehaves)
  // without the runner's process table (a sandbox made for one tool's tests) every call starts its own bwrap
  const tools = process.env.CCODE_SANDBOX_SHARED === "0" || !processes ? undefined : joinTools()
  let live: LiveSandbox | undefined
  let starting: Promise<void> | undefined
  let lastKey: string | undefined
  let failed = false
  const retire = (old: LiveSandbox) => {
    if (live === old) live = undefined
    void old.stop()
  }
  return {
    join(layout) {
      if (!tools || layout.proxy) return undefined
      const key = layoutKey(layout)
      const current = live
      if (current && !current.busy) {
        if (!current.dead && current.key === key && layoutIdentity(layout) === current.identity) {
          current.busy = true
          return {
            prefix: current.join(layout.cwd),
            release: async () => {
              const end = await endCall(current)
              if (end !== "clean") retire(current)
              if (end === "stuck") failed = true
              current.busy = false
            },
          }
        }
        // another layout, a path replaced since it was laid out, or it ended: never joined again
        retire(current)
      }
      if (!live && !starting && !failed && lastKey === key) {
        starting = startLive(layout, hold, tools, processes!).then((started) => {
          live = started
          failed = !started
          starting = undefined
        })
      }
      lastKey = key
      return undefined
    },
    async close() {
      await starting
      if (live) await live.stop()
      live = undefined
    },
  }
}
