// Commands whose output is a stored credential: a password manager's or a cloud CLI's "print the
// token", git's credential helpers, a decrypted secrets file. Reading the file they keep it in is
// `high` (core/base/secrets.ts); asking the program to print it must be no less. Matched loosely, on the
// fail-closed side: the subcommand words in order anywhere among the arguments (`kubectl -n x config
// view --raw`), a flag as written or as `--flag=value`. Pure.
import type { View } from "./table.ts"

interface Printer {
  /** words that must appear in this order among the arguments; a trailing `*` matches a prefix */
  subs: readonly string[]
  /** at least one of these must be given too (none listed: the subcommand alone prints) */
  flags?: readonly string[]
}

const PRINTERS: Record<string, readonly Printer[]> = {
  git: [{ subs: ["credential*"] }],
  gh: [{ subs: ["auth", "token"] }, { subs: ["auth", "status"], flags: ["-t", "--show-token"] }],
  glab: [{ subs: ["auth", "status"], flags: ["-t", "--show-token"] }, { subs: ["config", "get", "token"] }],
  kubectl: [{ subs: ["config", "view"], flags: ["--raw"] }, { subs: ["get", "secret*"], flags: ["-o", "--output"] }, { subs: ["create", "token"] }],
  oc: [{ subs: ["whoami"], flags: ["-t", "--show-token"] }, { subs: ["config", "view"], flags: ["--raw"] }],
  aws: [
    { subs: ["configure", "get"] }, { subs: ["configure", "export-credentials"] }, { subs: ["sts", "get-session-token"] },
    { subs: ["ecr", "get-login-password"] }, { subs: ["secretsmanager", "get-secret-value"] }, { subs: ["ssm", "get-parameter*"], flags: ["--with-decryption"] },
    { subs: ["codeartifact", "get-authorization-token"] },
  ],
  gcloud: [{ subs: ["auth", "print-access-token"] }, { subs: ["auth", "print-identity-token"] }, { subs: ["auth", "application-default", "print-access-token"] }, { subs: ["secrets", "versions", "access"] }],
  az: [{ subs: ["account", "get-access-token"] }, { subs: ["keyvault", "secret", "show"] }, { subs: ["keyvault", "secret", "download"] }],
  vault: [{ subs: ["read"] }, { subs: ["kv", "get"] }, { subs: ["print", "token"] }, { subs: ["token", "lookup"] }],
  op: [{ subs: ["read"] }, { subs: ["item", "get"] }, { subs: ["inject"] }, { subs: ["run"] }],
  bw: [{ subs: ["get"] }, { subs: ["list"] }, { subs: ["export"] }],
  lpass: [{ subs: ["show"] }],
  pass: [{ subs: [] }],
  gopass: [{ subs: ["show"] }, { subs: ["cat"] }],
  "secret-tool": [{ subs: ["lookup"] }, { subs: ["search"] }],
  security: [{ subs: ["find-generic-password"], flags: ["-w", "-g"] }, { subs: ["find-internet-password"], flags: ["-w", "-g"] }, { subs: ["dump-keychain"] }],
  sops: [{ subs: [], flags: ["-d", "--decrypt"] }, { subs: ["decrypt"] }, { subs: ["exec-env"] }, { subs: ["exec-file"] }],
  "ansible-vault": [{ subs: ["view"] }, { subs: ["decrypt"] }],
  gpg: [{ subs: [], flags: ["-d", "--decrypt", "--export-secret-keys", "--export-secret-subkeys"] }],
  gpg2: [{ subs: [], flags: ["-d", "--decrypt", "--export-secret-keys", "--export-secret-subkeys"] }],
  heroku: [{ subs: ["auth:token"] }],
  doctl: [{ subs: ["auth", "token"] }],
  flyctl: [{ subs: ["auth", "token"] }],
  fly: [{ subs: ["auth", "token"] }],
  keyctl: [{ subs: ["print"] }, { subs: ["read"] }, { subs: ["pipe"] }],
  "systemd-creds": [{ subs: ["decrypt"] }, { subs: ["cat"] }],
  "docker-credential-desktop": [{ subs: ["get"] }, { subs: ["list"] }],
  "docker-credential-pass": [{ subs: ["get"] }],
  "docker-credential-secretservice": [{ subs: ["get"] }],
  "docker-credential-osxkeychain": [{ subs: ["get"] }],
  "docker-credential-ecr-login": [{ subs: ["get"] }],
  "docker-credential-gcloud": [{ subs: ["get"] }],
}

/** The programs with a credential-printing form (for the risk table's entry). */
export const CREDENTIAL_PRINTERS: readonly string[] = Object.keys(PRINTERS)

/** Whether the command prints a stored credential. */
export function printsCredentials(v: View): boolean {
  const forms = PRINTERS[v.program.slice(v.program.lastIndexOf("/") + 1)]
  if (!forms) return false
  return forms.some((f) => inOrder(v.values, f.subs) && (!f.flags || v.values.some((a) => f.flags!.some((flag) => given(a, flag)))))
}

function inOrder(values: readonly string[], subs: readonly string[]): boolean {
  let at = 0
  for (const s of subs) {
    const prefix = s.endsWith("*") ? s.slice(0, -1) : undefined
    while (at < values.length && !(prefix === undefined ? values[at] === s : values[at]!.startsWith(prefix))) at++
    if (at === values.length) return false
    at++
  }
  return true
}

// `-w`, `--raw`, `--raw=true`, and a short flag inside a bundle (`-gw`, `-ojson` for `-o`)
function given(arg: string, flag: string): boolean {
  if (arg === flag || arg.startsWith(`${flag}=`)) return true
  if (flag.length === 2 && flag[0] === "-" && arg.length > 2 && arg[0] === "-" && arg[1] !== "-") return arg.includes(flag[1]!)
  return false
}
