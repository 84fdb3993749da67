// The fingerprint of an effective policy: a short hash that names, in every decision event and audit
// row, exactly which policy decided a call. Pure.
import type { Policy } from "./types.ts"
import { sha256 } from "../base/hash.ts"

/**
 * 16 hex digits of the SHA-256 of everything that decides or explains a call: rules (with the file:line
 * each came from), levels, modes, limits and the managed key ids. The `sources` map and the warnings
 * describe the merge, not the policy, and are left out.
 */
export function policyFingerprint(policy: Policy): string {
  const { sources: _s, ignored: _i, locked: _l, fingerprint: _f, ...decisive } = policy
  return sha256(JSON.stringify(decisive)).slice(0, 16)
}

/** The fields a decision event and audit row carry to name the policy that decided. */
export function policyStamp(policy: Policy): { policy_fingerprint?: string; managed_keys?: string[] } {
  return {
    policy_fingerprint: policy.fingerprint ?? policyFingerprint(policy),
    ...(policy.managed_keys?.length ? { managed_keys: policy.managed_keys } : {}),
  }
}
