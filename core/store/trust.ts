// Trusted policy/plugin files: the content hash a person approved with `ccode trust`.
import { eq } from "drizzle-orm"
import type { Store } from "./open.ts"
import { trust } from "./schema.ts"

export function isTrustedFile(store: Store, path: string, hash: string): boolean {
  const row = store.db.select({ hash: trust.hash }).from(trust).where(eq(trust.path, path)).get()
  return row?.hash === hash
}

export function recordTrust(store: Store, path: string, hash: string): void {
  store.db
    .insert(trust)
    .values({ path, hash, trustedAt: Date.now() })
    .onConflictDoUpdate({ target: trust.path, set: { hash, trustedAt: Date.now() } })
    .run()
}

export function revokeTrust(store: Store, path: string): boolean {
  const existed = store.db.select().from(trust).where(eq(trust.path, path)).get() !== undefined
  store.db.delete(trust).where(eq(trust.path, path)).run()
  return existed
}

export function trustedFiles(store: Store): { path: string; hash: string; trustedAt: number }[] {
  return store.db.select().from(trust).all()
}
