// The paths the sandbox always treats specially, whatever the policy adds. A policy can add to
// these lists, never take from them.

/** Credentials and keys a command has no business reading: they look empty inside the sandbox. */
export const HIDDEN_PATHS = [
  "~/.ssh", "~/.aws", "~/.gnupg", "~/.config/gcloud", "~/.kube", "~/.docker", "~/.netrc", "~/.npmrc", "~/.pypirc",
  "~/.git-credentials", "~/.config/gh", "~/.config/hub", "~/.azure", "~/.password-store", "~/.vault-token",
  "~/.terraform.d/credentials.tfrc.json", "~/.cargo/credentials", "~/.cargo/credentials.toml", "~/.gem/credentials",
  "~/.docker/config.json", "~/.config/op", "~/.local/share/keyrings",
]

/**
 * Paths kept read-only even inside a writable root: what would make the next git command, the next
 * ccode run, another agent or the next login shell run code of the command's choosing.
 */
export const READ_ONLY_PATHS = [
  ".git/hooks", ".git/config", ".ccode", ".claude", ".gemini", ".vscode", ".idea",
  "~/.bashrc", "~/.bash_profile", "~/.bash_login", "~/.profile", "~/.zshrc", "~/.zshenv", "~/.zprofile",
  "~/.config/fish", "~/.gitconfig", "~/.config/git", "~/.config/ccode", "~/.claude", "~/.gemini",
]
