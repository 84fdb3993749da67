// Where credentials live on a machine: files and folders a command has no business reading. One list,
// used twice: the policy's decision treats a path under any of them as `risk.paths` at level high (a
// read sends the secret to the model with the output), and the sandbox makes them look empty. A policy
// can add to it (`risk.paths`, `sandbox.hidden`), never take from it.

/** `~` is the user's home; a folder covers everything below it. Literal paths only (no globs). */
export const CREDENTIAL_PATHS: readonly string[] = [
  // keys and cloud credentials
  "~/.ssh", "~/.aws", "~/.gnupg", "~/.config/gcloud", "~/.kube", "~/.docker", "~/.azure", "~/.oci",
  "~/.netrc", "~/.git-credentials", "~/.config/gh", "~/.config/hub", "~/.password-store", "~/.vault-token",
  "~/.config/op", "~/.local/share/keyrings", "~/.config/rclone", "~/.s3cfg", "~/.boto", "~/.passwd-s3fs",
  // git's credential store in its XDG place (git credential-store reads it as well as ~/.git-credentials),
  // GitLab's CLI (its config.yml holds the tokens)
  "~/.config/git/credentials", "~/.config/glab-cli",
  // tokens Node CLIs keep through the configstore package (firebase-tools, vercel, ...)
  "~/.config/configstore",
  // package registries
  "~/.npmrc", "~/.pypirc", "~/.gem/credentials", "~/.cargo/credentials", "~/.cargo/credentials.toml",
  "~/.terraform.d/credentials.tfrc.json",
  // databases
  "~/.pgpass", "~/.my.cnf", "~/.mylogin.cnf",
  // other agents' logins
  "~/.claude/.credentials.json", "~/.codex/auth.json", "~/.gemini/oauth_creds.json", "~/.config/github-copilot",
  "~/.local/share/opencode/auth.json",
  // what people typed (passwords given as arguments end up here)
  "~/.bash_history", "~/.zsh_history", "~/.history", "~/.psql_history", "~/.mysql_history", "~/.python_history",
  "~/.sqlite_history", "~/.rediscli_history", "~/.node_repl_history", "~/.local/share/fish/fish_history",
  // browsers: saved passwords and session cookies
  "~/.mozilla", "~/.config/google-chrome", "~/.config/chromium", "~/.config/BraveSoftware", "~/.config/microsoft-edge",
  // the machine's own secrets (readable when ccode runs as root)
  "/etc/shadow", "/etc/shadow-", "/etc/gshadow", "/etc/gshadow-", "/etc/ssl/private", "/etc/ssh/ssh_host_rsa_key",
  "/etc/ssh/ssh_host_ecdsa_key", "/etc/ssh/ssh_host_ed25519_key", "/etc/ssh/ssh_host_dsa_key",
]

/**
 * Build tools' settings that often hold a registry password: a read by a command is as risky, but the
 * sandbox leaves them readable (a build inside it needs its mirrors and repositories).
 */
export const BUILD_CREDENTIAL_PATHS: readonly string[] = [
  "~/.m2/settings.xml", "~/.gradle/gradle.properties", "~/.nuget/NuGet/NuGet.Config", "~/.yarnrc.yml",
  // yarn 1's settings and pip's (an index URL with a password in it); both name the mirrors an install uses
  "~/.yarnrc", "~/.config/pip/pip.conf", "~/.pip/pip.conf",
  // terraform's CLI settings: `credentials "host" { token = .. }` beside the provider mirrors init needs
  "~/.terraformrc",
]

/** Both lists as path patterns for the policy: each path itself and everything below it. */
export function credentialPatterns(): string[] {
  return [...CREDENTIAL_PATHS, ...BUILD_CREDENTIAL_PATHS].flatMap((p) => [p, `${p}/**`])
}
