// A seeded random source for generated inputs: a failure names an input that fails again on the next run.

/** pick(n): a number in [0, n), the same sequence for the same seed. */
export function random(seed: number): (n: number) => number {
  return (n) => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) % n
  }
}
