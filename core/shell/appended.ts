// Arguments xargs (or parallel) adds at run time come from its input: any word at all. A program that
// runs its operands as a command (`xargs env`, `xargs nice`, `xargs timeout 5`) runs whatever the input
// says; any other program that is not read-only (`xargs git`, `xargs make`, `xargs find .`) can be
// turned into something else by an option in the input (`-c core.pager=..`, `SHELL=..`, `-exec ..`).
// Read-only programs are judged by their own option lists (readonly.ts). Pure.
import type { Finding } from "./raw.ts"
import type { Part } from "./part.ts"
import { known } from "./known.ts"

/** Programs that run their operands as a command: with none given statically, the input is the command. */
const RUNS_OPERANDS = new Set([
  "env", "nice", "timeout", "nohup", "command", "builtin", "exec", "stdbuf", "time", "xargs", "setsid", "ionice", "chrt", "taskset",
  "flock", "sudo", "doas", "su", "runuser", "chroot", "unshare", "nsenter", "systemd-run", "strace", "ltrace", "unbuffer", "busybox",
  "eval", "source", ".", "watch", "parallel", "script", "firejail", "proot", "caffeinate", "sg", "newgrp",
  "setarch", "linux32", "linux64", "prlimit", "setpriv", "numactl", "faketime", "valgrind", "fakeroot", "dbus-run-session",
])

/** A program that runs its operands as a command (eval, env, sudo, ...): what is appended to it runs. */
export function runsOperands(program: string): boolean {
  return RUNS_OPERANDS.has(program)
}

export function appendedArguments(part: Part, base: string, out: Finding[]): void {
  if (!part.appended || !part.context.some((c) => c === "xargs" || c === "parallel")) return
  if (RUNS_OPERANDS.has(base)) {
    part.unresolved ??= `${part.program} runs the command xargs fills in at run time`
    return
  }
  if (known(base)) return
  out.push({ name: "appended-arguments", level: "medium", reason: `${part.program} gets arguments xargs adds at run time: an option among them can change what it runs` })
}
