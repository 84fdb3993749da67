// The organisation's managed.yaml: a policy layer plus the keys that sign policies and which layers
// must be signed. Pure: no fs. Heavy (zod): loaded only when a managed.yaml exists.
import { z } from "zod"
import { PolicyFile } from "./schema.ts"

export const ManagedFile = PolicyFile.extend({
  trusted_keys: z.array(z.string().min(1)).optional()
    .describe("public keys (ed25519:..., from `ccode policy keygen`) whose signatures ccode accepts"),
  policy: z.strictObject({
    require_signed: z.boolean().optional().describe("workspace policy files load only when signed with a trusted key"),
  }).optional(),
}).describe("the managed policy of an organisation (/etc/ccode/managed.yaml)")
export type ManagedFile = z.infer<typeof ManagedFile>
