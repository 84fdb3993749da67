// Short, time-sortable ids: a prefix, the time in base36, and random characters.
const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz"

export function newId(prefix: string): string {
  const time = Date.now().toString(36).padStart(9, "0")
  const bytes = crypto.getRandomValues(new Uint8Array(5))
  let random = ""
  for (const byte of bytes) random += ALPHABET[byte % 36]
  return `${prefix}${time}${random}`
}
