// The lean terminal renderer: alternate screen, only changed lines repainted, raw keys from stdin,
// and the terminal given back as it was on every way out (close, process exit, crash).
import { writeSync } from "node:fs"

const ENTER = "\x1b[?1049h\x1b[?25l\x1b[2J"
const LEAVE = "\x1b[0m\x1b[?25h\x1b[?1049l"
// terminals that know it show a frame at once (no tearing); the others ignore it
const BEGIN_FRAME = "\x1b[?2026h"
const END_FRAME = "\x1b[?2026l"

export interface Screen {
  readonly width: number
  readonly height: number
  /** draw a frame: only lines that differ from the last frame are written */
  paint(lines: string[]): void
  close(): void
}

export function openScreen(
  out: NodeJS.WriteStream, input: NodeJS.ReadStream,
  on: { keys(chunk: string): void; resize(): void },
): Screen {
  let previous: string[] = []
  let open = true
  const restore = () => {
    if (!open) return
    open = false
    try {
      writeSync((out as unknown as { fd?: number }).fd ?? 2, LEAVE)
    } catch {}
    try {
      if (input.isTTY) input.setRawMode(false)
    } catch {}
  }
  const onData = (chunk: Buffer | string) => on.keys(chunk.toString())
  const onResize = () => {
    previous = [] // everything again: the terminal may have reflowed it
    writeSafe("\x1b[2J")
    on.resize()
  }
  const writeSafe = (text: string) => {
    if (open) out.write(text)
  }
  out.write(ENTER)
  if (input.isTTY) input.setRawMode(true)
  input.on("data", onData)
  input.resume()
  out.on("resize", onResize)
  process.on("exit", restore)
  return {
    get width() {
      return out.columns || 80
    },
    get height() {
      return out.rows || 24
    },
    paint(lines) {
      let frame = ""
      for (let i = 0; i < Math.max(lines.length, previous.length); i++) {
        const line = lines[i] ?? ""
        if (line !== previous[i]) frame += `\x1b[${i + 1};1H\x1b[2K${line}\x1b[0m`
      }
      previous = lines
      if (frame) writeSafe(BEGIN_FRAME + frame + END_FRAME)
    },
    close() {
      if (!open) return
      input.off("data", onData)
      input.pause()
      out.off("resize", onResize)
      process.off("exit", restore)
      restore()
    },
  }
}
