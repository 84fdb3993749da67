// getopt-style option scanning for the programs that run other programs: where their own options end and
// the command they run begins. Data per program, one scanner. Pure.
import type { Word } from "./word.ts"

export interface OptionSpec {
  /** short options that take a value (attached `-uroot` or next word `-u root`) */
  valued?: string
  /** long options that take a value (`--user=root` or `--user root`) */
  long?: string[]
  /** long options without a value, for getopt_long's prefix matching (`--sh` = `--shell`) */
  flags?: string[]
  /** words after the options that are not the command (timeout's DURATION, chroot's NEWROOT) */
  positional?: number
}

export interface Scanned {
  /** index of the first word of the command they run (may equal words.length: no command) */
  command: number
  /** option names seen: single letters and long names without dashes */
  flags: Set<string>
  /** values of valued options, by name */
  values: Map<string, string | undefined>
  /** the same values as words (a separate `~/x` keeps its tilde) */
  valueWords: Map<string, Word | undefined>
  /** the positional words skipped */
  positionals: Word[]
}

export function scanOptions(words: Word[], from: number, spec: OptionSpec): Scanned {
  const flags = new Set<string>()
  const values = new Map<string, string | undefined>()
  const valueWords = new Map<string, Word | undefined>()
  let i = from
  for (; i < words.length; i++) {
    const v = words[i]!.value
    if (v === undefined || !v.startsWith("-") || v === "-") break
    if (v === "--") {
      i++
      break
    }
    if (v.startsWith("--")) {
      const eq = v.indexOf("=")
      const name = longName(v.slice(2, eq < 0 ? undefined : eq), spec)
      flags.add(name)
      if (eq >= 0) {
        values.set(name, v.slice(eq + 1))
        valueWords.set(name, { ...words[i]!, text: v.slice(eq + 1), value: v.slice(eq + 1), tilde: false })
      } else if (spec.long?.includes(name)) {
        valueWords.set(name, words[i + 1])
        values.set(name, words[++i]?.value)
      }
      continue
    }
    for (let j = 1; j < v.length; j++) {
      const c = v[j]!
      flags.add(c)
      if (!spec.valued?.includes(c)) continue
      if (j + 1 < v.length) {
        values.set(c, v.slice(j + 1))
        valueWords.set(c, { ...words[i]!, text: v.slice(j + 1), value: v.slice(j + 1), tilde: false })
      } else {
        valueWords.set(c, words[i + 1])
        values.set(c, words[++i]?.value)
      }
      break
    }
  }
  const positionals = words.slice(i, i + (spec.positional ?? 0))
  return { command: Math.min(words.length, i + positionals.length), flags, values, valueWords, positionals }
}

// getopt_long: a unique prefix of a long option is that option (`--split` = `--split-string`)
function longName(given: string, spec: OptionSpec): string {
  if ((!spec.long && !spec.flags) || !given || spec.long?.includes(given) || spec.flags?.includes(given)) return given
  const hits = [...(spec.long ?? []), ...(spec.flags ?? [])].filter((n) => n.startsWith(given))
  return hits.length === 1 ? hits[0]! : given
}

/** A lookup table keyed by names from the command. A Map, not an object: `constructor`, `toString` or
 *  `__proto__` as a program name must find nothing, not Object's own members. */
export function byName<T>(entries: Record<string, T>): ReadonlyMap<string, T> {
  return new Map(Object.entries(entries))
}
