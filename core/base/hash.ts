// Content hashes. Pure: no fs, no clock.

/** Hex SHA-256 of a text. */
export function sha256(text: string): string {
  return new Bun.CryptoHasher("sha256").update(text).digest("hex")
}
