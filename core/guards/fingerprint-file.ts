// A big walk fingerprint lives in a file of its own under CCODE_HOME, not in the checkpoint: a
// 100,000-file folder would otherwise add megabytes of JSON to the database with every run.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import type { Fingerprint } from "./workspace-diff.ts"

/** Above this many files a walk's listing is stored beside the run rather than in its checkpoint. */
const INLINE_FILES = 2000

/** The fingerprint to put in a checkpoint: small as it is, or with its files written to `$home/runs/<run>/fingerprint.json`. */
export function storeFingerprint(fingerprint: Fingerprint, home: string, runId: string): Fingerprint {
  if (fingerprint.kind !== "walk" || Object.keys(fingerprint.files).length <= INLINE_FILES) return fingerprint
  const path = join(home, "runs", runId, "fingerprint.json")
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, JSON.stringify(fingerprint.files))
  return { ...fingerprint, files: {}, stored: path }
}

/** The fingerprint a checkpoint holds, with its files read back; undefined when they are gone. */
export function loadFingerprint(fingerprint: Fingerprint | undefined): Fingerprint | undefined {
  if (!fingerprint?.stored) return fingerprint
  try {
    const { stored: _path, ...rest } = fingerprint
    return { ...rest, files: JSON.parse(readFileSync(fingerprint.stored, "utf8")) as Fingerprint["files"] }
  } catch {
    return undefined
  }
}
