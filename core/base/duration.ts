// Durations as users write them: 250ms, 30s, 5m, 1h, 1d, or a number of milliseconds. Pure.
import { z } from "zod"

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }
const PATTERN = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)$/

/** Milliseconds for a duration, or undefined when the text is not one. */
export function parseDuration(value: string | number): number | undefined {
  if (typeof value === "number") return Number.isFinite(value) && value >= 0 ? value : undefined
  const trimmed = value.trim()
  if (/^\d+$/.test(trimmed)) return Number(trimmed)
  const match = PATTERN.exec(trimmed)
  if (!match) return undefined
  return Math.round(Number(match[1]) * UNIT_MS[match[2]!]!)
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)}s`
  if (ms < 3_600_000) return `${Math.floor(ms / 60_000)}m${Math.round((ms % 60_000) / 1000)}s`
  return `${Math.floor(ms / 3_600_000)}h${Math.floor((ms % 3_600_000) / 60_000)}m`
}

/** A zod type accepting a duration and giving milliseconds. */
export const Duration = z
  .union([z.number().nonnegative(), z.string()])
  .transform((value, ctx) => {
    const ms = parseDuration(value)
    if (ms === undefined) {
      ctx.addIssue({ code: "custom", message: `expected a duration like 250ms, 30s, 5m, 1h or a number of milliseconds, got "${value}"` })
      return z.NEVER
    }
    return ms
  })
