// The run's shared sandbox through the compiled binary: later steps join one live sandbox, nothing a
// step started is there for the next, and kill -9 of ccode ends the sandbox and everything in it.
import { afterEach, describe, expect, test } from "bun:test"
import { existsSync, readdirSync, readFileSync, readlinkSync, rmSync } from "node:fs"
import { join } from "node:path"
import { ccode, sandbox, spawnCcode, waitFor, type Sandbox } from "./harness.ts"
import { boxes, WARM } from "./boxes.ts"

const USABLE = Bun.which("bwrap") !== null && existsSync("/usr/bin/nsenter") && existsSync("/usr/bin/setpriv")
const box = boxes()

describe.skipIf(!USABLE)("the shared sandbox (compiled binary)", () => {
  test("later steps run in one live sandbox; a background, a setsid'd and an untagged child of one step are gone at the next", async () => {
    const sb = box()
    sb.file("spawn.sh", [
      "tr '\\0' ' ' < /proc/1/cmdline > pid1.txt",
      "readlink /proc/self/ns/pid > ns3.txt",
      "sleep 3101 &",
      "(setsid sleep 3102 &)",
      "env -i /bin/bash -c 'setsid sleep 3103 </dev/null >/dev/null 2>&1 &'",
      "sleep 0.2",
    ].join("\n") + "\n")
    sb.file("look.sh", "readlink /proc/self/ns/pid > ns4.txt\nfor p in /proc/[0-9]*; do tr '\\0' ' ' < $p/cmdline; echo; done > seen.txt\n")
    sb.file("task.yaml", ["version: 1", "steps:", ...WARM, "  - id: spawn", "    run: bash spawn.sh", "  - id: look", "    run: bash look.sh"].join("\n") + "\n")
    const result = await ccode(sb, ["run", "task.yaml", "--yes", "--sandbox", "required"])
    expect(result.code).toBe(0)
    expect(readFileSync(join(sb.work, "pid1.txt"), "utf8")).toContain("__sandbox-hold")
    expect(readFileSync(join(sb.work, "ns4.txt"), "utf8")).toBe(readFileSync(join(sb.work, "ns3.txt"), "utf8"))
    const seen = readFileSync(join(sb.work, "seen.txt"), "utf8")
    expect(seen).toContain("__sandbox-hold")
    expect(seen).not.toMatch(/sleep 310[123]/)
    // and nothing of them anywhere on the machine once the run is over
    expect(processesMatching(/sleep 310[123]/)).toEqual([])
  }, 60_000)

  test("kill -9 of ccode during a joined step ends the sandbox, its pid 1 and what the step started", async () => {
    const sb = box()
    sb.file("task.yaml", ["version: 1", "steps:", ...WARM, "  - id: slow", "    run: readlink /proc/self/ns/pid > ns.txt; tr '\\0' ' ' < /proc/1/cmdline > pid1.txt; (setsid sleep 3201 &); sleep 3202", "    timeout: 1m"].join("\n") + "\n")
    const proc = await spawnCcode(sb, ["run", "task.yaml", "--yes", "--sandbox", "required"])
    try {
      await waitFor(() => existsSync(join(sb.work, "pid1.txt")) && readFileSync(join(sb.work, "pid1.txt"), "utf8").length > 0)
      expect(readFileSync(join(sb.work, "pid1.txt"), "utf8")).toContain("__sandbox-hold")
      const ns = readFileSync(join(sb.work, "ns.txt"), "utf8").trim()
      await waitFor(() => inNamespace(ns).length >= 2)
      proc.kill("SIGKILL")
      await proc.exited
      await waitFor(() => inNamespace(ns).length === 0, 10_000)
      expect(processesMatching(/sleep 320[12]/)).toEqual([])
    } finally {
      proc.kill("SIGKILL")
    }
  }, 60_000)
})

/** Live (not zombie) processes whose pid namespace is `ns`. */
function inNamespace(ns: string): number[] {
  const out: number[] = []
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue
    try {
      if (readlinkSync(`/proc/${entry}/ns/pid`) !== ns) continue
      if (/^\d+ \(.*\) [ZX]/.test(readFileSync(`/proc/${entry}/stat`, "utf8"))) continue
      out.push(Number(entry))
    } catch {
      // gone
    }
  }
  return out
}

function processesMatching(pattern: RegExp): string[] {
  const out: string[] = []
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const cmd = readFileSync(`/proc/${entry}/cmdline`, "utf8").replaceAll("\0", " ")
      if (pattern.test(cmd) && !/^\d+ \(.*\) [ZX]/.test(readFileSync(`/proc/${entry}/stat`, "utf8"))) out.push(`${entry} ${cmd}`)
    } catch {
      // gone
    }
  }
  return out
}
