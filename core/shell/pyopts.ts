// Python's own command line (Modules/main.c, not getopt_long): which word is the module (-m), the code
// (-c) or the script. -W and -X take a value (attached or the next word), so `python3 -X pytest -m
// http.server` runs http.server, not pytest. Pure.

export interface PythonCommand {
  /** the module -m runs */
  module?: string
  /** -c CODE was given */
  code?: boolean
  /** index (in the arguments) of the script file, when neither -m nor -c is given */
  script?: number
}

const VALUED = new Set(["W", "X", "Q"])

export function pythonCommand(values: readonly string[]): PythonCommand {
  for (let i = 0; i < values.length; i++) {
    const a = values[i]!
    if (a === "--") return i + 1 < values.length ? { script: i + 1 } : {}
    if (a === "--check-hash-based-pycs") {
      i++
      continue
    }
    if (a.startsWith("--")) continue
    if (!a.startsWith("-") || a === "-") return { script: i }
    for (let j = 1; j < a.length; j++) {
      const c = a[j]!
      if (c === "m") return { module: j + 1 < a.length ? a.slice(j + 1) : values[i + 1] }
      if (c === "c") return { code: true }
      if (VALUED.has(c)) {
        if (j + 1 === a.length) i++
        break
      }
    }
  }
  return {}
}
