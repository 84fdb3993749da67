// Results on stdout, written whole before the command returns. process.stdout.write is asynchronous
// in Bun: what a slow pipe reader has not taken yet when the process exits is lost (a cut at 64 KiB
// with exit 0). Writing synchronously makes `ccode audit --format jsonl | slow-reader` complete.
import { writeSync } from "node:fs"

let closed = false

/** Write `text` (a newline is added when missing) to stdout, completely. */
export function out(text: string): void {
  write(1, text && !text.endsWith("\n") ? `${text}\n` : text)
}

/** Write text to a file descriptor in full, waiting while a non-blocking pipe is full. */
export function write(fd: number, text: string): void {
  if (closed || !text) return
  const bytes = Buffer.from(text)
  let done = 0
  while (done < bytes.length) {
    try {
      done += writeSync(fd, bytes, done, bytes.length - done)
    } catch (error) {
      const code = (error as { code?: string }).code
      if (code === "EAGAIN") {
        Bun.sleepSync(1)
        continue
      }
      // the reader went away (`ccode audit | head -1`): stop writing, as other tools do
      if (code === "EPIPE") {
        closed = true
        return
      }
      throw error
    }
  }
}
