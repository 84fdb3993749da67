// Keys of the panel: raw terminal bytes -> key names, and key -> action for the panel's mode.
// Pure: no terminal, no clock.

export type Key =
  | "up" | "down" | "enter" | "escape" | "backspace" | "ctrl-c" | "pageup" | "pagedown"
  | { char: string }

export type Mode = "run" | "help" | "choice" | "text"

export type Action =
  | { type: "pause" } | { type: "continue" } | { type: "breakpoint" } | { type: "select"; by: number }
  | { type: "help" } | { type: "close" } | { type: "stop" }
  | { type: "choose"; index?: number } | { type: "scroll"; by: number }
  | { type: "type"; text: string } | { type: "erase" } | { type: "none" }

const ESCAPES: Record<string, Key> = {
  "\x1b[A": "up", "\x1bOA": "up", "\x1b[B": "down", "\x1bOB": "down",
  "\x1b[5~": "pageup", "\x1b[6~": "pagedown",
}

/** Split a chunk read from a raw-mode stdin into keys (a paste arrives as many characters at once). */
export function parseKeys(chunk: string): Key[] {
  const keys: Key[] = []
  let i = 0
  while (i < chunk.length) {
    const escape = Object.keys(ESCAPES).find((seq) => chunk.startsWith(seq, i))
    if (escape) {
      keys.push(ESCAPES[escape]!)
      i += escape.length
      continue
    }
    const c = chunk[i]!
    if (c === "\x1b") {
      // an unknown sequence (other arrows, function keys) is swallowed whole, never read as letters
      const rest = /^\x1b(\[[0-9;?]*[ -/]*[@-~]|O.)?/.exec(chunk.slice(i))![0]
      if (rest.length === 1) keys.push("escape")
      i += rest.length
      continue
    }
    if (c === "\r" || c === "\n") keys.push("enter")
    else if (c === "\x03") keys.push("ctrl-c")
    else if (c === "\x7f" || c === "\b") keys.push("backspace")
    else if (c >= " ") keys.push({ char: c })
    i++
  }
  return keys
}

/** What a key does in a mode. Ctrl-C always stops (the same as Ctrl-C without the panel). */
export function keyAction(key: Key, mode: Mode): Action {
  if (key === "ctrl-c") return { type: "stop" }
  if (mode === "text") {
    if (key === "enter") return { type: "choose" }
    if (key === "backspace") return { type: "erase" }
    if (typeof key === "object") return { type: "type", text: key.char }
    return { type: "none" }
  }
  const char = typeof key === "object" ? key.char.toLowerCase() : undefined
  if (mode === "help") return char === "q" ? { type: "stop" } : { type: "close" }
  if (key === "up") return { type: "select", by: -1 }
  if (key === "down") return { type: "select", by: 1 }
  if (key === "pageup") return { type: "scroll", by: -10 }
  if (key === "pagedown") return { type: "scroll", by: 10 }
  if (mode === "choice") {
    if (key === "enter") return { type: "choose" }
    if (char && /^[1-9]$/.test(char)) return { type: "choose", index: Number(char) - 1 }
    if (char === "q") return { type: "stop" }
    if (char === "h" || char === "?") return { type: "help" }
    // answer this question, then pause before the next call
    if (char === "p") return { type: "pause" }
    return { type: "none" }
  }
  switch (char) {
    case "p": return { type: "pause" }
    case "c": case "r": return { type: "continue" }
    case "b": return { type: "breakpoint" }
    case "h": case "?": return { type: "help" }
    case "q": return { type: "stop" }
    case "k": return { type: "select", by: -1 }
    case "j": return { type: "select", by: 1 }
    default: return { type: "none" }
  }
}
