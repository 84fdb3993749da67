// All of stdin as text, read with plain blocking reads: Bun.stdin.text() sets up a stream and costs ~2 ms
// at start-up, which every hook call would pay.
import { readSync } from "node:fs"

export function readStdin(): string {
  const chunks: Buffer[] = []
  const buf = Buffer.allocUnsafe(65536)
  for (;;) {
    let n: number
    try {
      n = readSync(0, buf, 0, buf.length, null)
    } catch (error) {
      if ((error as { code?: string }).code === "EAGAIN") continue
      if ((error as { code?: string }).code === "EOF") break
      throw error
    }
    if (n <= 0) break
    chunks.push(Buffer.from(buf.subarray(0, n)))
  }
  return Buffer.concat(chunks).toString("utf8")
}
