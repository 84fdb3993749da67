// PostgreSQL text cannot hold a NUL character (SQLite can): a tool's output or a message with one would
// fail the whole transaction. It is stored as U+FFFD, the replacement character, instead.
export function noNul<T extends string | null | undefined>(value: T): T {
  return (typeof value === "string" && value.includes("\0") ? value.replaceAll("\0", "\uFFFD") : value) as T
}
