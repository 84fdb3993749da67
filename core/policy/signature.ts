// Ed25519 keys and detached signatures of policy files (`ccode policy keygen|sign`, signed layers).
// Node's crypto does the cryptography; this module only names keys and reads the .sig format. No fs.
import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from "node:crypto"

/** How a public key is written in `trusted_keys:` and KEY.pub: "ed25519:" + base64url of its 32 bytes. */
export const KEY_PREFIX = "ed25519:"
const SIG_FORMAT = "ccode-policy-signature/1"

export interface PublicKey {
  /** short hash of the key bytes: what messages and the audit name */
  id: string
  /** the `ed25519:...` text */
  text: string
  key: KeyObject
}

export interface Signature {
  key_id: string
  /** base64 of the 64-byte Ed25519 signature */
  signature: string
}

export function generateKeyPair(): { privatePem: string; publicKey: PublicKey } {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519")
  return { privatePem: privateKey.export({ type: "pkcs8", format: "pem" }) as string, publicKey: describeKey(publicKey) }
}

/** A pinned key from its `ed25519:...` text; undefined when it is not one. */
export function parsePublicKey(text: string): PublicKey | undefined {
  const raw = text.trim()
  if (!raw.startsWith(KEY_PREFIX)) return undefined
  const x = raw.slice(KEY_PREFIX.length)
  if (!/^[A-Za-z0-9_-]{43}$/.test(x)) return undefined
  try {
    return describeKey(createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x }, format: "jwk" }))
  } catch {
    return undefined
  }
}

/** The private key of a PEM file; throws a plain message when it is not an Ed25519 private key. */
export function parsePrivateKey(pem: string): { key: KeyObject; publicKey: PublicKey } {
  let key: KeyObject
  try {
    key = createPrivateKey(pem)
  } catch {
    throw new Error("not a PEM private key (make one with `ccode policy keygen`)")
  }
  if (key.asymmetricKeyType !== "ed25519") throw new Error(`an ${key.asymmetricKeyType} key, not Ed25519`)
  return { key, publicKey: describeKey(createPublicKey(key)) }
}

/** The .sig file's text for `content` signed with `key`. */
export function signContent(content: Uint8Array, key: KeyObject, keyId: string): string {
  const signature = sign(null, content, key).toString("base64")
  return `${JSON.stringify({ format: SIG_FORMAT, key_id: keyId, signature })}\n`
}

/** The signature a .sig file holds; throws a plain message when it is malformed. */
export function parseSignature(text: string): Signature {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new Error("not a ccode policy signature (expected the JSON `ccode policy sign` writes)")
  }
  const v = value as Record<string, unknown>
  if (!v || v.format !== SIG_FORMAT || typeof v.key_id !== "string" || typeof v.signature !== "string") {
    throw new Error(`not a ccode policy signature (expected format "${SIG_FORMAT}", key_id and signature)`)
  }
  return { key_id: v.key_id, signature: v.signature }
}

/** Whether `sig` is `key`'s signature of exactly these bytes. */
export function verifyContent(content: Uint8Array, sig: Signature, key: PublicKey): boolean {
  const bytes = Buffer.from(sig.signature, "base64")
  if (bytes.length !== 64) return false
  try {
    return verify(null, content, key.key, bytes)
  } catch {
    return false
  }
}

function describeKey(key: KeyObject): PublicKey {
  const x = (key.export({ format: "jwk" }) as { x: string }).x
  const id = new Bun.CryptoHasher("sha256").update(Buffer.from(x, "base64url")).digest("hex").slice(0, 16)
  return { id, text: `${KEY_PREFIX}${x}`, key }
}
