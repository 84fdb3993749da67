// The paths the sandbox always treats specially, whatever the policy adds. A policy can add to
// these lists, never take from them.

import { CREDENTIAL_PATHS } from "../base/secrets.ts"
import { existingHomes } from "../base/homes.ts"

/** Credentials and keys a command has no business reading: they look empty inside the sandbox. */
export const HIDDEN_PATHS = CREDENTIAL_PATHS

/** The same locations in every other home on the machine (root's, other accounts'): a sandbox that
 *  runs as root, or with a HOME that is not the account's, would read them there. */
export function otherHomesHidden(home: string): string[] {
  const homes = existingHomes().filter((h) => h !== home && h !== "/")
  // the homes are looked for at every call; the 2,000 paths built from them only when they change
  const key = homes.join("\0")
  if (others?.key !== key) others = { key, paths: homes.flatMap((h) => HOME_RESTS.map((r) => h + r)) }
  return others.paths
}

const HOME_RESTS = CREDENTIAL_PATHS.filter((p) => p.startsWith("~/")).map((p) => p.slice(1))
let others: { key: string; paths: string[] } | undefined

/**
 * Unix sockets that hand out the host's power: a read-only mount does not stop connect(), so they are
 * hidden (docker or podman = root on the host, an X server = keystrokes, the session bus = the desktop).
 * The ssh and gpg agents' sockets and the user's runtime dir are added from the environment.
 */
export const HIDDEN_SOCKETS = [
  "/var/run/docker.sock", "/run/docker.sock", "/run/containerd", "/run/podman", "/var/run/podman",
  "/run/dbus", "/var/run/dbus", "/tmp/.X11-unix", "/run/user", "/var/run/user",
]

/** Sockets named by the environment the command would inherit. */
export function socketsFromEnv(env: Record<string, string | undefined>): string[] {
  return [env.SSH_AUTH_SOCK, env.XDG_RUNTIME_DIR, env.GPG_AGENT_INFO?.split(":")[0], env.DBUS_SESSION_BUS_ADDRESS?.match(/^unix:path=([^,;]+)/)?.[1]]
    .filter((p): p is string => Boolean(p) && p!.startsWith("/"))
}

/**
 * Paths kept read-only even inside a writable root: what would make the next git command, the next
 * ccode run, another agent or the next login shell run code of the command's choosing.
 */
export const READ_ONLY_PATHS = [
  ".git/hooks", ".git/config", ".ccode", ".claude", ".gemini", ".vscode", ".idea",
  "~/.bashrc", "~/.bash_profile", "~/.bash_login", "~/.profile", "~/.zshrc", "~/.zshenv", "~/.zprofile",
  "~/.config/fish", "~/.gitconfig", "~/.config/git", "~/.config/ccode", "~/.claude", "~/.gemini",
  // what runs at the next login or command lookup, when the home folder is itself a writable root
  "~/.config/systemd", "~/.config/autostart", "~/.config/environment.d", "~/.local/bin", "~/bin", "~/.pam_environment",
  "~/.xprofile", "~/.xsessionrc",
]

/**
 * ccode's own folders and files as the sandbox hides them: the data folder (runs, snapshots of every
 * workspace, sockets), the configuration (the user policy's tokens), the database with its -wal, -shm and
 * -journal files. What ccode keeps from the commands it runs is added here, in one list.
 */
export function sandboxOwnPaths(...owns: { dirs: readonly string[]; dbs: readonly string[] }[]): OwnSandboxPaths {
  const files = owns.flatMap((o) => o.dbs).flatMap((db) => [db, ...DB_SIDE_FILES.map((s) => db + s)])
  return { dirs: [...new Set(owns.flatMap((o) => o.dirs))], files: [...new Set(files)] }
}

/** Folders hidden (and, missing inside a writable root, kept from being made) and files hidden. */
export interface OwnSandboxPaths {
  dirs: string[]
  files: string[]
}

const DB_SIDE_FILES = ["-wal", "-shm", "-journal"]
