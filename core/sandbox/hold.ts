// `ccode __sandbox-hold`: pid 1 of a run's shared sandbox (bwrap --as-pid-1). It keeps the sandbox's
// namespaces alive between calls, reaps what calls leave behind, and does nothing else: it has no
// channel a command could use, and is made non-dumpable first, so a command (same uid) can neither
// ptrace it nor open its /proc files. As a namespace's init it ignores every signal sent from inside
// that it has no handler for (SIGKILL and SIGSTOP included). It ends when ccode closes its stdin.
import { dlopen, FFIType } from "bun:ffi"

const PR_SET_DUMPABLE = 4
const WNOHANG = 1
const REAP_EVERY_MS = 20

export async function holdMain(): Promise<number> {
  let libc
  try {
    libc = dlopen("libc.so.6", {
      prctl: { args: [FFIType.i32, FFIType.u64, FFIType.u64, FFIType.u64, FFIType.u64], returns: FFIType.i32 },
      waitpid: { args: [FFIType.i32, FFIType.ptr, FFIType.i32], returns: FFIType.i32 },
    })
  } catch (error) {
    console.error(`ccode sandbox hold: no libc: ${(error as Error).message}`)
    return 1
  }
  // never said ready while dumpable: ccode joins no command to a sandbox whose pid 1 could be taken over
  if (libc.symbols.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) !== 0 || process.pid !== 1) {
    console.error("ccode sandbox hold: cannot become a non-dumpable pid 1")
    return 1
  }
  const { waitpid } = libc.symbols
  // orphans of every call are reparented here; reaped so the namespace holds no zombie of an ended call
  const reaper = setInterval(() => {
    while (waitpid(-1, null, WNOHANG) > 0) {
      // one reaped; look for the next
    }
  }, REAP_EVERY_MS)
  process.stdout.write("ready\n")
  for await (const _ of Bun.stdin.stream()) {
    // ccode never writes; EOF (ccode closed it, or ended) is the end
  }
  clearInterval(reaper)
  return 0
}
