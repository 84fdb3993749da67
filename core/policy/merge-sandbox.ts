// Merging the `sandbox:` section. An untrusted layer may only tighten it: a stricter mode, less
// network, more hidden and read-only paths; a writable path is a grant and only trusted layers add one. Pure.
import type { MergeStep } from "./merge.ts"
import type { SandboxPolicy } from "./types.ts"

const MODE_RANK = { off: 0, auto: 1, required: 2 } as const

export function mergeSandbox(m: MergeStep): void {
  const s = m.layer.value.sandbox
  if (!s) return
  const cur = m.policy.sandbox
  cur.mode = m.take("sandbox.mode", cur.mode, s.mode, (c, n) => MODE_RANK[n] >= MODE_RANK[c])
  cur.network = m.take("sandbox.network", cur.network, s.network, lessNetwork)
  // more confirming only restricts: any layer may turn previews on, only a trusted one off
  cur.preview = m.take("sandbox.preview", cur.preview, s.preview, (c, n) => n || n === c)
  addPaths(m, cur, "hidden", s.hidden, true)
  addPaths(m, cur, "read_only", s.read_only, true)
  // a writable path widens the sandbox: a managed sandbox (its mode or writable list) forbids adding one
  addPaths(m, cur, "writable", s.writable, m.mayLoosen("sandbox.writable"))
}

function addPaths(m: MergeStep, cur: SandboxPolicy, key: "hidden" | "read_only" | "writable", paths: string[] | undefined, allowed: boolean): void {
  ;(paths ?? []).forEach((p, i) => {
    const path = `sandbox.${key}.${i}`
    if (!allowed) return m.ignore(path, `sandbox.${key}: ${p}`, m.lockOf(`sandbox.${key}`))
    if (cur[key].includes(p)) return
    m.claim(`sandbox.${key}.${cur[key].length}`, path)
    if (key === "writable") m.claim("sandbox.writable", path)
    cur[key].push(p)
  })
}

// none < [hosts] < allow in what they let out; a host list only narrows another host list
function lessNetwork(current: SandboxPolicy["network"], next: SandboxPolicy["network"]): boolean {
  if (next === "none" || current === "allow") return true
  if (current === "none" || next === "allow") return false
  return next.every((host) => current.includes(host))
}
