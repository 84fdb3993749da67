// A pure function's answers for the strings it was asked before, kept in a Map that is emptied when
// full (so memory stays bounded). Only for functions whose answer depends on the string alone.

export function memoize<V>(compute: (key: string) => V, limits: { entries: number; maxLength: number }): (key: string) => V {
  const memo = new Map<string, V>()
  return (key) => {
    if (key.length > limits.maxLength) return compute(key)
    let value = memo.get(key)
    if (value === undefined) {
      value = compute(key)
      if (memo.size >= limits.entries) memo.clear()
      memo.set(key, value)
    }
    return value
  }
}
