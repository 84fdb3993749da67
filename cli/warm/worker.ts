// `ccode __hook-worker` (internal): one warm hook call in a fresh process. The hook's modules load
// first (the server starts this process before its call arrives), then one request is read from stdin
// and decided exactly as `ccode hook` decides it; stdout, stderr and the exit code are the hook's (the
// code is said on fd 3, then stdout and stderr are closed: cli/warm/workers.ts).
// Refuses (exit 3, no decision) a request whose environment or folder is not the one it was started
// with: its modules may have read them while loading.
import { closeSync, writeSync } from "node:fs"
import { createRedactor } from "../../core/redact/index.ts"
import { hookMain } from "../hook.ts"
import { readStdin } from "../stdin.ts"
import { decodeRequest } from "./protocol.ts"

/** Not a hook's exit code (0 or 2): the client takes it for no answer and decides in-process. */
const REFUSED = 3
/** After answering, the worker idles this long before closing the store and exiting. */
const EXIT_DELAY_MS = 30

export async function hookWorkerMain(): Promise<number> {
  // the built-in redaction rules compile once per process into the same scanner whoever calls: built
  // while no call waits (nothing of the environment, the disk or the clock goes into it)
  createRedactor({})
  const line = readStdin()
  // the server went away before a call came: nothing to decide
  if (line === "") return 0
  const req = decodeRequest(line)
  if (!req || !sameEnv(req.env, process.env) || req.cwd !== process.cwd()) return REFUSED
  process.umask(req.umask)
  const code = await hookMain(req.argv, req.stdin)
  // the answer is whole: the server may send it now, while this process closes the store and exits
  writeSync(3, String(code))
  for (const fd of [1, 2, 3]) closeSync(fd)
  // closing the store and exiting can wait until the client has printed the answer and exited
  await Bun.sleep(EXIT_DELAY_MS)
  return code
}

function sameEnv(a: Record<string, string>, b: Record<string, string | undefined>): boolean {
  const keys = Object.keys(a)
  if (keys.length !== Object.keys(b).length) return false
  return keys.every((k) => b[k] === a[k])
}
