// The built-in risk table of shell commands as data: each entry has a name, so a policy's
// risk.overrides can change its level. Entries that look at paths live in assess.ts. Pure.
import type { Risk } from "../base/risk.ts"
import type { Canonical } from "./flags.ts"
import type { Part } from "./part.ts"
import type { PlaceContext } from "./paths.ts"
import type { Word } from "./word.ts"
import { isProgramKey } from "./git.ts"
import { gitOperands } from "./readonly.ts"
import { known } from "./known.ts"
import { readOptions } from "./getopt.ts"
import { manFormatsLocal, manPagesFrom } from "./optionreads.ts"
import { compilesStdin } from "./builds.ts"
import { GLOB_ALIAS_REASON, HISTORY_REASON, KEYWORD_REASON, LASTPIPE_REASON, POSIX_REASON, setsHistory, setsKeyword, setsPosix, shoptGlobAlias, shoptLastpipe } from "./shelloptions.ts"
import { CREDENTIAL_PRINTERS, printsCredentials } from "./credprint.ts"
import { SYSTEM_ENTRIES } from "./table-system.ts"
import { pythonCommand } from "./pyopts.ts"

/** What an entry looks at: the part with its arguments in plain and canonical form. */
export interface View {
  part: Part
  program: string
  args: Word[]
  /** argument values (their text when not static) */
  values: string[]
  canon: Canonical
  /** first operand: the subcommand of git, npm, cargo, ... */
  sub: string | undefined
  place: PlaceContext
  /** files the command writes that its options or operands name (`sort -o F`, `uniq IN OUT`): path rules see them */
  writes: Word[]
}

export interface Entry {
  name: string
  level: Risk
  reason: string
  programs: readonly string[]
  /** the subcommand must be one of these */
  sub?: readonly string[]
  when?: (v: View) => boolean
}

// getopt_long and git's parse-options take any unique prefix of a long option (`--mirr` = `--mirror`,
// `--forc` = `--force`): a prefix given counts as each option it starts. An ambiguous one makes the
// program refuse to run, so counting it as any of them is safe.
function flag(v: View, ...names: string[]): boolean {
  if (exactFlag(v, names)) return true
  for (const given of v.canon.flags) {
    if (given.length < 3 || given.charCodeAt(1) !== 45 || given.includes("=")) continue
    for (const n of names) if (n.length > given.length && n.startsWith(given)) return true
  }
  return false
}
// a listing's exclusions: an abbreviated option there is judged by the option list, which names it
function exactFlag(v: View, names: string[]): boolean {
  for (const n of names) if (v.canon.flags.has(n)) return true
  return false
}
const anyArg = (v: View, re: RegExp) => v.values.some((a) => re.test(a))
const second = (v: View) => v.canon.operands[1]

const READ_ONLY = [...new Set([
  "ls", "ll", "la", "dir", "pwd", "echo", "printf", "cat", "head", "tail", "wc", "grep", "egrep", "fgrep", "rg", "ag", "ack",
  "which", "whereis", "type", "file", "stat", "du", "df", "tree", "less", "more", "bat", "diff", "cmp", "comm", "sort", "uniq",
  "cut", "tr", "nl", "tac", "rev", "fold", "fmt", "column", "paste", "join", "od", "xxd", "hexdump", "strings", "md5sum",
  "sha1sum", "sha256sum", "sha512sum", "shasum", "cksum", "b2sum", "base64", "basename", "dirname", "realpath", "readlink",
  "true", "false", "test", "[", ":", "id", "whoami", "groups", "uname", "hostname", "date", "cal", "uptime", "ps", "pgrep",
  "free", "env", "printenv", "locale", "tty", "nproc", "arch", "sleep", "seq", "jq", "yq", "help", "dirs", "jobs", "wait",
  "cd", "pushd", "popd", "set", "shopt", "exit", "return", "break", "continue", "shift", "getconf", "lscpu", "lsblk", "lsof",
  "man", "info", "tldr", "top", "htop", "btop", "vmstat", "iostat", "w", "who", "last", "id", "getent", "command", "time", "nohup", "nice", "timeout", "history", "hash", "umask", "ulimit", "fd", "fdfind",
  "exa", "eza", "tokei", "cloc", "wait", "xdg-user-dir", "mktemp", "sw_vers", "lsb_release", "netstat", "ss",
])]

const LFS_READ = ["ls-files", "status", "env", "version"]
const isLfs = (v: View) => v.program === "git-lfs" || v.sub === "lfs"
// the git-lfs command: `git lfs X` or `git-lfs X`
const lfsCommand = (v: View) => (v.program === "git" ? second(v) : v.sub)

const BUILD_TOOLS = [
  "make", "tsc", "jest", "vitest", "pytest", "mocha", "eslint", "ruff", "mypy", "black", "gradle", "gradlew", "mvn",
  "rustc", "gcc", "g++", "clang", "clang++", "cc", "cmake", "ninja", "just", "tox", "nox", "phpunit", "rspec", "biome",
  "oxlint", "golangci-lint", "shellcheck", "hadolint", "swiftc", "javac", "kotlinc", "zig", "bazel", "buck2", "turbo", "nx",
]

const GIT_READ = new Set([
  "status", "log", "diff", "show", "blame", "describe", "shortlog", "rev-parse", "rev-list", "ls-files", "ls-tree", "cat-file",
  "grep", "whatchanged", "version", "help", "count-objects", "check-ignore", "merge-base", "name-rev", "show-ref", "for-each-ref",
  "var", "cherry", "range-diff", "annotate", "show-branch", "verify-commit", "verify-tag", "fsck", "check-attr", "diff-tree",
  "diff-index", "diff-files",
])

// git send-pack and http-push are the plumbing under git push: they push (and force) the same way
const GIT_PUSH = ["push", "send-pack", "http-push"]

const GIT_WRITE = new Set([
  "add", "commit", "stash", "checkout", "switch", "merge", "rebase", "cherry-pick", "revert", "restore", "mv", "rm", "pull",
  "fetch", "clone", "init", "am", "apply", "worktree", "notes", "submodule", "remote", "config", "tag", "branch", "reset",
  "bisect", "sparse-checkout", "maintenance", "gc", "prune", "repack", "lfs", "format-patch", "archive", "bundle", "clean",
  "reflog", "symbolic-ref", "update-index", "update-ref", "read-tree", "commit-tree", "write-tree", "mktag", "mktree", "replace",
  "ls-remote",
])

const PKG_MANAGERS = ["npm", "pnpm", "yarn", "bun", "deno"]
const PKG_RUN = ["test", "t", "run", "run-script", "build", "lint", "check", "fmt", "format", "typecheck", "start", "dev", "bench", "audit", "ls", "list", "outdated", "view", "info", "why", "pm", "version", "--version", "-v", "help", "doctor", "explain", "tsc"]
const PKG_INSTALL = ["install", "i", "ci", "add", "remove", "rm", "uninstall", "un", "update", "up", "upgrade", "link", "unlink", "dedupe", "prune", "rebuild", "init", "create", "patch", "exec", "x", "dlx"]
// npm's (and pnpm's, which hands these to npm) commands that ask the registry: view and its aliases,
// search and its aliases, and the account, team and documentation commands
const NPM_NETWORK = [
  "view", "info", "show", "v", "outdated", "audit", "search", "s", "se", "find", "ping", "whoami", "doctor", "docs", "home", "bugs",
  "repo", "diff", "star", "stars", "unstar", "team", "org", "hook", "profile", "cache", "login", "logout",
]
const PUBLISH = ["publish", "unpublish", "deprecate", "dist-tag", "owner", "access", "token", "adduser", "login"]

export const TABLE: readonly Entry[] = [
  { name: "read-only", level: "safe", reason: "reads only", programs: READ_ONLY },
  { name: "credential-read", level: "high", reason: "reads password hashes (getent shadow): where credentials are kept", programs: ["getent"], when: (v) => readOptions(v.args, known("getent")!.options).operands.some((o) => o.value === undefined || /^g?shadow$/.test(o.value)) },
  { name: "credential-read", level: "high", reason: "prints a stored credential (a token, a password, a decrypted secret): it reaches the model with the output", programs: CREDENTIAL_PRINTERS, when: printsCredentials },
  { name: "man-local", level: "medium", reason: "man formats a local file: its .so requests can read any file", programs: ["man"], when: (v) => manFormatsLocal(v.part.words) },
  { name: "man-local", level: "medium", reason: "man reads pages from a folder -M or MANPATH names: their .so requests can read any file", programs: ["man"], when: (v) => manPagesFrom(v.part.words, [...v.part.assignments.map((a) => a.name), ...(v.part.exported?.keys() ?? [])]) },
  { name: "process-environment", level: "high", reason: "ps e prints other processes' environments, which hold their API keys and tokens", programs: ["ps"], when: psEnvironment },
  { name: "shell-option", level: "high", reason: LASTPIPE_REASON, programs: ["shopt"], when: (v) => shoptLastpipe(v.args) },
  { name: "shell-option", level: "high", reason: KEYWORD_REASON, programs: ["set", "shopt"], when: (v) => setsKeyword(v.program, v.args) },
  { name: "shell-option", level: "high", reason: HISTORY_REASON, programs: ["set", "shopt"], when: (v) => setsHistory(v.program, v.args) },
  { name: "shell-option", level: "high", reason: POSIX_REASON, programs: ["set", "shopt"], when: (v) => setsPosix(v.program, v.args) },
  { name: "shell-option", level: "high", reason: GLOB_ALIAS_REASON, programs: ["shopt"], when: (v) => shoptGlobAlias(v.args) },
  { name: "print-environment", level: "medium", reason: "prints the environment, which may hold secrets", programs: ["env", "printenv", "export", "declare", "typeset", "set", "readonly", "local"], when: printsEnvironment },
  { name: "print-environment", level: "medium", reason: "npm run env (the package managers' built-in env script) prints the environment, which may hold secrets", programs: PKG_MANAGERS, sub: ["run", "run-script", "run-scripts", "rum", "urn"], when: (v) => second(v) === "env" },
  { name: "print-environment", level: "medium", reason: "make -p prints its database, which holds the environment (secrets included)", programs: ["make"], when: makePrintsDatabase },
  { name: "text-tool", level: "low", reason: "processes text", programs: ["sed", "awk", "gawk", "mawk", "nawk"] },
  { name: "find", level: "safe", reason: "searches files", programs: ["find"] },
  { name: "git-external-tools", level: "medium", reason: "runs the diff programs the repository configures", programs: ["git"], when: (v) => v.values.some((a) => a === "--ext-diff" || a === "--textconv") },
  { name: "date-set", level: "high", reason: "sets the system clock", programs: ["date"], when: setsDate },
  { name: "hostname-set", level: "high", reason: "renames the machine", programs: ["hostname"], when: (v) => v.canon.operands.length > 0 || v.values.some((a) => /^-[a-zA-Z]*[Fb]|^--(?:fi|b)[a-z]*(?:=|$)/.test(a)) },
  { name: "build", level: "low", reason: "builds or tests", programs: BUILD_TOOLS },
  { name: "program-option", level: "high", reason: "mvn's exec plugin runs the program -Dexec.executable names with -Dexec.args: a command line given here, not the project's code", programs: ["mvn", "mvnw"], when: (v) => v.values.some((a, i) => /^-Dexec\.(executable|args|commandlineArgs)=/.test(a) || (a === "-D" && /^exec\.(executable|args|commandlineArgs)=/.test(v.values[i + 1] ?? ""))) },
  { name: "stdin-source", level: "medium", reason: "compiles source from stdin: its #include can read any file", programs: ["gcc", "g++", "clang", "clang++", "cc", "c++", "cpp", "tcc", "zig"], when: compilesStdin },
  { name: "build", level: "low", reason: "builds or tests", programs: PKG_MANAGERS, sub: PKG_RUN },
  { name: "build", level: "low", reason: "builds or tests", programs: ["cargo"], sub: ["build", "test", "check", "clippy", "fmt", "doc", "bench", "tree", "metadata", "nextest", "run", "--version"] },
  { name: "build", level: "low", reason: "builds or tests", programs: ["go"], sub: ["build", "test", "vet", "fmt", "run", "list", "version", "env", "doc", "generate", "tool"] },
  // registry queries: the build entries above keep them low, these raise them (what they send says which
  // packages the workspace uses, and the registry's answer is the model's input)
  { name: "network", level: "medium", reason: "queries the package registry over the network", programs: ["npm", "pnpm"], sub: NPM_NETWORK },
  { name: "network", level: "medium", reason: "queries the package registry over the network", programs: ["yarn"], sub: ["info", "outdated", "audit", "npm", "search", "owner", "team", "tag", "login", "logout"] },
  { name: "network", level: "medium", reason: "queries the package registry over the network", programs: ["bun"], when: bunNetwork },
  { name: "network", level: "medium", reason: "queries the package registry over the network", programs: ["deno"], when: (v) => v.sub === "outdated" || (v.sub === "info" && v.canon.operands.length > 1) },
  { name: "network", level: "medium", reason: "queries the module proxy over the network (go list -m -u, -versions, -retracted, a @version query)", programs: ["go"], sub: ["list"], when: goListNetwork },
  { name: "network", level: "medium", reason: "downloads modules over the network", programs: ["go"], sub: ["mod"], when: (v) => ["download", "tidy"].includes(second(v) ?? "") },
  { name: "install", level: "medium", reason: "bun pm trust runs the install scripts of the packages it trusts", programs: ["bun"], sub: ["pm"], when: (v) => second(v) === "trust" },
  { name: "write-files", level: "medium", reason: "changes package.json, the cache or the repository (bun pm version tags a commit)", programs: ["bun"], sub: ["pm"], when: (v) => ["version", "pkg", "cache", "migrate", "pack"].includes(second(v) ?? "") && !(second(v) === "pkg" && v.canon.operands[2] === "get") && !(second(v) === "cache" && v.canon.operands.length === 2) },
  { name: "build", level: "low", reason: "builds or tests", programs: ["dotnet"], sub: ["build", "test", "run", "format", "--version"] },
  { name: "build", level: "low", reason: "builds or tests", programs: ["deno"], sub: ["test", "check", "lint", "fmt", "bench", "doc", "info"] },
  { name: "script", level: "medium", reason: "runs a script", programs: ["deno"], sub: ["run", "serve", "x", "repl", "compile", "install", "upgrade"] },
  { name: "network-upload", level: "high", reason: "sends data inside its packets (ping -p)", programs: ["ping", "ping6"], when: (v) => v.values.some((a) => /^-[a-zA-Z]*p/.test(a)) },
  { name: "build", level: "low", reason: "builds or tests", programs: ["prettier"], when: (v) => !flag(v, "--write", "-w") },
  { name: "write-files", level: "medium", reason: "rewrites files", programs: ["prettier"], when: (v) => flag(v, "--write", "-w") },
  { name: "run-package", level: "medium", reason: "downloads and runs a package", programs: ["npx", "bunx", "pnpx", "uvx", "pipx"] },
  { name: "run-package", level: "medium", reason: "downloads and runs a package", programs: ["pnpm", "yarn", "bun", "npm"], sub: ["dlx", "x", "exec"] },
  { name: "unknown-option", level: "medium", reason: "an option before the subcommand may take it as its value: the command after it (install, exec, publish, ...) would run", programs: [...PKG_MANAGERS, "cargo"], when: hiddenSubcommand },
  { name: "install", level: "medium", reason: "installs or changes dependencies", programs: PKG_MANAGERS, sub: PKG_INSTALL },
  { name: "install", level: "medium", reason: "installs or changes dependencies", programs: ["pip", "pip3", "uv", "poetry", "pipenv", "gem", "bundle", "composer", "brew", "cargo", "go", "conda", "mamba"], sub: ["install", "uninstall", "add", "remove", "sync", "update", "upgrade", "get", "lock", "pip", "require"] },
  { name: "install", level: "medium", reason: "installs or removes system packages", programs: ["apt", "apt-get", "yum", "dnf", "pacman", "zypper", "apk", "port", "snap", "flatpak"] },
  { name: "publish", level: "high", reason: "publishes a package", programs: [...PKG_MANAGERS, "cargo", "poetry", "twine", "gem", "dotnet", "helm"], sub: [...PUBLISH, "push", "upload", "yank"] },
  { name: "publish", level: "high", reason: "pushes an image", programs: ["docker", "podman"], sub: ["push"] },
  { name: "git-read", level: "safe", reason: "reads the repository", programs: ["git"], when: (v) => v.sub === undefined || GIT_READ.has(v.sub) },
  { name: "git-write", level: "medium", reason: "changes the repository", programs: ["git"], when: (v) => v.sub !== undefined && v.sub !== "ls-remote" && !GIT_READ.has(v.sub) && !gitListing(v) },
  { name: "git-read", level: "safe", reason: "lists repository state", programs: ["git"], when: gitListing },
  { name: "git-unknown", level: "medium", reason: "an unfamiliar git command", programs: ["git"], when: (v) => v.sub !== undefined && !GIT_READ.has(v.sub) && !GIT_WRITE.has(v.sub) && !GIT_PUSH.includes(v.sub) },
  { name: "git-push", level: "high", reason: "pushes to a remote", programs: ["git"], sub: GIT_PUSH },
  // git lfs X and git-lfs X: only the listings read
  { name: "git-read", level: "safe", reason: "lists large-file state", programs: ["git-lfs"], when: (v) => LFS_READ.includes(lfsCommand(v) ?? "") },
  { name: "git-write", level: "medium", reason: "git lfs changes the repository or its large files", programs: ["git-lfs"], when: (v) => !LFS_READ.includes(lfsCommand(v) ?? "") },
  { name: "git-config-global", level: "high", reason: "git lfs install changes git configuration outside the repository (~/.gitconfig)", programs: ["git", "git-lfs"], when: (v) => isLfs(v) && ["install", "uninstall"].includes(lfsCommand(v) ?? "") && !flag(v, "--local", "-l", "--worktree") },
  { name: "git-push", level: "high", reason: "git lfs push uploads large files to a remote", programs: ["git", "git-lfs"], when: (v) => isLfs(v) && lfsCommand(v) === "push" },
  { name: "git-network", level: "medium", reason: "git lfs contacts a remote over the network", programs: ["git", "git-lfs"], when: (v) => isLfs(v) && ["fetch", "pull", "clone", "lock", "unlock", "locks", "migrate"].includes(lfsCommand(v) ?? "") },
  { name: "git-push-delete", level: "high", reason: "deletes a remote branch or tag", programs: ["git"], sub: GIT_PUSH, when: (v) => flag(v, "-d", "--prune") || v.canon.operands.slice(2).some((o) => o.startsWith(":")) },
  { name: "git-force-push", level: "critical", reason: "force-pushes: rewrites shared history", programs: ["git"], sub: GIT_PUSH, when: (v) => flag(v, "-f", "--force-with-lease", "--force-if-includes", "--mirror") || anyArg(v, /^--force-with-lease=/) || v.canon.operands.slice(1).some((o) => o.startsWith("+")) },
  { name: "git-reset-hard", level: "high", reason: "discards uncommitted changes", programs: ["git"], sub: ["reset"], when: (v) => flag(v, "--hard", "--merge", "--keep") },
  { name: "git-clean", level: "high", reason: "deletes untracked files", programs: ["git"], sub: ["clean"], when: (v) => flag(v, "-f") && !flag(v, "-n") },
  { name: "git-branch-delete", level: "high", reason: "deletes a branch", programs: ["git"], sub: ["branch", "tag"], when: (v) => flag(v, "-d") },
  { name: "git-discard", level: "medium", reason: "discards changes in files", programs: ["git"], sub: ["checkout", "restore", "switch"], when: (v) => flag(v, "-f", "--discard-changes") || v.canon.operands.includes(".") },
  { name: "git-history-rewrite", level: "high", reason: "rewrites or drops history", programs: ["git"], sub: ["filter-branch", "filter-repo", "replace"] },
  { name: "git-history-rewrite", level: "high", reason: "drops recovery data", programs: ["git"], sub: ["reflog", "gc", "prune", "update-ref", "stash"], when: (v) => anyArg(v, /^(expire|delete|drop|clear|--prune=now|--expire=now|-d)$/) },
  { name: "git-config-program", level: "critical", reason: "configures a program git will run", programs: ["git"], sub: ["config"], when: (v) => !gitListing(v) && v.canon.operands.slice(1).some((o) => isProgramKey(o)) },
  { name: "git-config-global", level: "high", reason: "changes git configuration outside the repository", programs: ["git"], sub: ["config"], when: (v) => flag(v, "--global", "--system") && !gitListing(v) },
  { name: "git-network", level: "medium", reason: "contacts a remote repository over the network", programs: ["git"], sub: ["ls-remote", "fetch", "pull", "clone", "remote", "submodule"], when: gitNetwork },
  { name: "network", level: "medium", reason: "getent hosts, ahosts and networks look up names over the network (DNS)", programs: ["getent"], when: (v) => readOptions(v.args, known("getent")!.options).operands.slice(0, 1).some((o) => o.value === undefined || /^(a?hosts(v[46])?|networks)$/.test(o.value)) },
  { name: "loader-env", level: "high", reason: "getent -s/--service with a / in it loads that library (libnss_SERVICE.so.2, a path from the current directory): its code runs", programs: ["getent"], when: (v) => readOptions(v.args, known("getent")!.options).valued.some((o) => (o.name === "s" || o.name === "service") && (o.value?.value === undefined || o.value.value.includes("/"))) },
  { name: "network", level: "medium", reason: "looks up names over the network", programs: ["nslookup", "dig", "host", "whois", "drill", "delv", "resolvectl"] },
  { name: "network", level: "medium", reason: "sends packets over the network", programs: ["ping", "ping6", "traceroute", "tracepath", "mtr", "arping"] },
  { name: "network", level: "medium", reason: "downloads from the network", programs: ["curl", "wget", "http", "https", "xh", "aria2c", "fetch"] },
  { name: "network-upload", level: "high", reason: "sends data over the network", programs: ["curl", "http", "https", "xh"], when: (v) => flag(v, "-T", "-d", "-F", "--data-binary", "--data-raw", "--data-urlencode", "--json", "--upload-file", "--form-string") || anyArg(v, /^(POST|PUT|PATCH|DELETE)$|^-X(POST|PUT|PATCH|DELETE)$|^--request=(POST|PUT|PATCH|DELETE)$/) || (v.program !== "curl" && anyArg(v, /^(POST|PUT|PATCH|DELETE)$|^[^=:]+(=|:=)/)) },
  { name: "network-upload", level: "high", reason: "sends data over the network", programs: ["wget"], when: (v) => flag(v, "--post-data", "--post-file", "--body-data", "--body-file", "--method") || anyArg(v, /^--(post-data|post-file|body-data|body-file|method)/) },
  { name: "network-upload", level: "high", reason: "copies files to or from another machine", programs: ["scp", "rsync", "sftp", "ftp", "lftp", "rclone"] },
  { name: "network-listen", level: "high", reason: "opens raw network connections", programs: ["nc", "ncat", "netcat", "socat", "telnet", "nmap"] },
  { name: "ssh", level: "medium", reason: "runs commands on another machine", programs: ["ssh", "mosh"] },
  { name: "permissions", level: "high", reason: "changes permissions or ownership", programs: ["chmod", "chown", "chgrp", "setfacl", "chattr", "chflags"] },
  { name: "process-kill", level: "high", reason: "kills processes", programs: ["kill", "pkill", "killall", "xkill", "skill"] },
  { name: "kill-everything", level: "critical", reason: "kills every process it can", programs: ["kill", "killall5"], when: (v) => v.program === "killall5" || v.values.includes("-1") && v.values.indexOf("-1") === v.values.length - 1 },
  { name: "power", level: "critical", reason: "shuts down or restarts the machine", programs: ["shutdown", "reboot", "halt", "poweroff", "kexec"] },
  { name: "power", level: "critical", reason: "shuts down or restarts the machine", programs: ["init", "telinit"], when: (v) => /^[06sS]$/.test(v.sub ?? "") },
  { name: "power", level: "critical", reason: "shuts down or restarts the machine", programs: ["systemctl", "loginctl"], sub: ["poweroff", "reboot", "halt", "kexec", "suspend", "hibernate", "soft-reboot", "kill-session", "terminate-session"] },
  { name: "services", level: "high", reason: "starts, stops or changes system services", programs: ["systemctl", "service", "launchctl", "sc", "rc-service"], when: (v) => !["status", "list-units", "list-unit-files", "show", "cat", "is-active", "is-enabled", "list", "print"].includes(v.sub ?? "status") },
  { name: "services", level: "safe", reason: "reads service state", programs: ["systemctl", "service", "launchctl"], when: (v) => ["status", "list-units", "list-unit-files", "show", "cat", "is-active", "is-enabled", "list", "print", undefined].includes(v.sub) },
  { name: "program-option", level: "high", reason: "cloc --vcs runs the command it is given to list the files (other than git, svn or auto)", programs: ["cloc"], when: (v) => readOptions(v.args, known("cloc")!.options).valued.some((o) => o.name === "vcs" && !/^(git|svn|auto)$/.test(o.value?.value ?? "")) },
  { name: "disk-format", level: "critical", reason: "formats or repartitions a disk", programs: ["mkfs", "mke2fs", "mkswap", "fdisk", "sfdisk", "cfdisk", "parted", "gdisk", "sgdisk", "wipefs", "diskutil", "mkdosfs", "newfs"] },
  ...SYSTEM_ENTRIES,
  { name: "privileged", level: "critical", reason: "runs as another user (root)", programs: ["sudo", "doas", "su", "pkexec", "runuser", "sudoedit"] },
  { name: "privileged", level: "high", reason: "changes the root or namespaces of what it runs", programs: ["chroot", "unshare", "nsenter", "systemd-run"] },
  { name: "privileged", level: "high", reason: "runs with another group's rights", programs: ["sg", "newgrp"] },
  { name: "runs-commands", level: "low", reason: "runs the command checked beside it", programs: ["xargs", "watch", "parallel", "eval", "trap", "alias", "flock", "script"] },
  { name: "archive", level: "medium", reason: "packs or unpacks files", programs: ["tar", "unzip", "zip", "gzip", "gunzip", "bzip2", "xz", "unxz", "7z", "zstd", "pigz", "unpigz", "bunzip2", "lzma", "unlzma", "unzstd", "lz4", "unlz4"] },
  { name: "shell-builtin", level: "safe", reason: "shell bookkeeping", programs: ["export", "unset", "local", "declare", "typeset", "readonly", "read", "getopts", "mapfile", "readarray", "let", "bind", "complete", "compgen", "disown", "fg", "bg", "suspend", "logout", "enable", "caller", "source", "."] },
  { name: "containers", level: "medium", reason: "runs or builds containers", programs: ["docker", "podman", "nerdctl", "docker-compose", "kubectl", "helm", "minikube", "kind"] },
  { name: "containers-read", level: "low", reason: "reads container state", programs: ["docker", "podman", "kubectl"], when: (v) => ["ps", "images", "logs", "inspect", "version", "info", "get", "describe", "top", "stats"].includes(v.sub ?? "") },
  { name: "containers-delete", level: "high", reason: "deletes containers, images, volumes or cluster objects", programs: ["docker", "podman", "kubectl", "helm"], when: (v) => ["rm", "rmi", "delete", "uninstall", "kill", "drain", "cordon", "scale"].includes(v.sub ?? "") || anyArg(v, /^(prune|rm|down)$/) },
  { name: "infrastructure", level: "high", reason: "changes cloud infrastructure", programs: ["terraform", "tofu", "pulumi", "cdk", "serverless", "sls", "ansible-playbook"], when: (v) => ["apply", "destroy", "up", "deploy", "import", "refresh", "remove", "state", "taint"].includes(v.sub ?? "") },
  { name: "infrastructure", level: "medium", reason: "talks to cloud infrastructure", programs: ["aws", "gcloud", "az", "terraform", "tofu", "pulumi", "doctl", "flyctl", "fly", "vercel", "netlify", "heroku", "wrangler"] },
  { name: "database", level: "medium", reason: "talks to a database", programs: ["psql", "mysql", "sqlite3", "mongo", "mongosh", "redis-cli", "clickhouse-client", "duckdb"] },
  { name: "database-drop", level: "high", reason: "drops a database", programs: ["dropdb", "dropuser", "mysqladmin"] },
  { name: "scheduler", level: "high", reason: "changes scheduled jobs", programs: ["crontab", "at", "batch"], when: (v) => v.program !== "crontab" || !flag(v, "-l") },
  { name: "github", level: "medium", reason: "acts on GitHub", programs: ["gh", "glab", "hub"] },
  { name: "github-read", level: "low", reason: "reads from GitHub", programs: ["gh", "glab"], when: (v) => ["view", "list", "status", "diff", "checks", "browse"].includes(second(v) ?? "") },
  { name: "github-delete", level: "high", reason: "deletes or publishes on GitHub", programs: ["gh", "glab"], when: (v) => ["delete", "archive", "transfer", "merge"].includes(second(v) ?? "") || (v.sub === "release" && second(v) === "create") },
  { name: "inline-code", level: "high", reason: "runs inline code that is not inspected", programs: ["python", "python2", "python3", "pypy", "pypy3", "node", "nodejs", "bun", "deno", "perl", "ruby", "php", "lua", "luajit", "Rscript", "osascript", "julia", "tclsh", "vim", "nvim", "emacs"], when: inlineCode },
  { name: "code-from-input", level: "high", reason: "runs code it reads from its input", programs: ["python", "python2", "python3", "pypy3", "node", "nodejs", "perl", "ruby", "php", "lua", "Rscript", "osascript", "julia", "irb"], when: (v) => !!v.part.stdin && v.part.stdin.kind !== "file" && (v.canon.operands.length === 0 || v.canon.operands[0] === "-") },
  { name: "build", level: "low", reason: "builds or tests", programs: ["python", "python3"], when: (v) => ["pytest", "unittest", "mypy", "black", "ruff", "build", "compileall", "doctest", "tox"].includes(pythonCommand(v.values).module ?? "") },
  { name: "shell-history-clear", level: "low", reason: "clears shell history", programs: ["history"], when: (v) => flag(v, "-c") },
]

// BSD `e` in a word of letters (`ps e`, `ps axe`, `ps -ef e`, `ps eww -e`) adds each process's environment;
// a word after a BSD letter that takes a value (`ps o user`, `ps U dev`) is that value
function psEnvironment(v: View): boolean {
  let value = false
  for (const o of readOptions(v.args, known("ps")!.options).operands) {
    const w = o.value
    if (w === undefined) return true
    if (value) {
      value = false
      continue
    }
    if (!/^[A-Za-z]+$/.test(w)) continue
    if (w.includes("e")) return true
    value = /[oOpqtUkG]$/.test(w)
  }
  return false
}

// env and printenv with no command or name, export/declare/typeset with no names (-p, -x), set alone
function printsEnvironment(v: View): boolean {
  const p = v.program
  if (p === "set") return v.args.length === 0
  if (p === "printenv") return readOptions(v.args, known("printenv")!.options).operands.length === 0
  if (p === "env") return readOptions(v.args, known("env")!.options).operands.every((o) => o.value !== undefined && /^[A-Za-z_][A-Za-z0-9_]*=/.test(o.value))
  // a word known only at run time may be -p; declare, typeset and local list the variables for `+ATTR`
  // options too (`declare +x`), export and readonly do not; -f/-F list functions instead
  const signs = p === "export" || p === "readonly" ? /^-[a-zA-Z]*$/ : /^[-+][a-zA-Z]*$/
  // `--` ends the options: with no name after it (`declare --`, `export -p --`) the list is printed too
  const end = v.args.findIndex((a) => a.value === "--")
  const options = end < 0 ? v.args : v.args.slice(0, end)
  const names = end < 0 ? [] : v.args.slice(end + 1)
  return options.every((a) => a.value === undefined || a.value === "" || (signs.test(a.value) && !/^-[a-zA-Z]*[fF]/.test(a.value)))
    && names.every((a) => a.value === undefined || a.value === "")
}

// date -s/--set, or an operand that is not +FORMAT (date MMDDhhmm sets the clock); read the way date reads
// its options, so -Iseconds is not -s
function setsDate(v: View): boolean {
  const r = readOptions(v.args, known("date")!.options)
  return r.valued.some((o) => o.name === "s" || o.name === "set") || r.operands.some((o) => o.value === undefined || !o.value.startsWith("+"))
}

// bun info/outdated/audit and bun pm view/whoami/diff/fetch/scan ask the registry
function bunNetwork(v: View): boolean {
  if (v.sub === "info" || v.sub === "outdated" || v.sub === "audit") return true
  return v.sub === "pm" && ["view", "whoami", "diff", "fetch", "scan"].includes(second(v) ?? "")
}

// go list -m -u / -versions / -retracted look up newer versions; an operand with @ (x@latest, x@v1) is a query
// (go reads `-flag`, `--flag` and `-flag=value`; only an explicit false turns one off)
function goListNetwork(v: View): boolean {
  for (const a of v.values.slice(1)) {
    const m = /^--?(u|versions|retracted)(?:=(.*))?$/.exec(a)
    if (m && !/^(false|0|f|F|FALSE|False)$/.test(m[2] ?? "")) return true
    if (!a.startsWith("-") && a.includes("@")) return true
  }
  return false
}

// make -p / --print-data-base (or a -p among other letters: -np, -pq) prints its database, the
// environment's variables included; letters after one that takes a value are that value (-Cp is -C p)
function makePrintsDatabase(v: View): boolean {
  for (const a of v.values) {
    if (a === "--") return false
    if (/^--print-da/.test(a)) return true
    if (!/^-[^-]/.test(a)) continue
    for (const c of a.slice(1)) {
      if (c === "p") return true
      if ("CfIoWEjlO".includes(c)) break
    }
  }
  return false
}

// `git remote show NAME` and `git submodule update` reach the remote too (`remote show -n` does not)
// `npm --foo test install x`: when --foo takes a value, test is that value and install the subcommand
function hiddenSubcommand(v: View): boolean {
  const next = v.canon.operands[1]
  if (next === undefined || !(PKG_INSTALL.includes(next) || PUBLISH.includes(next))) return false
  const at = v.values.indexOf(v.sub ?? "")
  return at > 0 && v.values[at - 1]!.startsWith("-") && !v.values[at - 1]!.includes("=")
}

function gitNetwork(v: View): boolean {
  const ops = v.canon.operands.slice(1)
  if (v.sub === "remote") return ["show", "update", "prune", "set-head"].includes(ops[0] ?? "") && !flag(v, "-n")
  if (v.sub === "submodule") return ["update", "sync", "foreach"].includes(ops[0] ?? "") || flag(v, "--remote")
  return true
}

function gitListing(v: View): boolean {
  const ops = v.canon.operands.slice(1)
  switch (v.sub) {
    case "branch":
      return (gitOperands(v).length === 0 || flag(v, "-l", "--list")) && !exactFlag(v, ["-d", "-m", "-c", "--set-upstream-to", "-u", "--unset-upstream", "--edit-description"])
    case "tag":
      return (gitOperands(v).length === 0 || flag(v, "-l", "--list")) && !flag(v, "-d", "-a", "-s", "-f")
    case "remote":
      return ops.length === 0 || ["show", "get-url"].includes(ops[0]!)
    case "config":
      return flag(v, "-l", "--list", "--get", "--get-all", "--get-regexp", "--show-origin") || (ops.length === 1 && !flag(v, "--unset", "--unset-all", "--add", "--replace-all", "--remove-section", "--rename-section", "-e", "--edit"))
    case "stash":
      return ["list", "show"].includes(ops[0] ?? "")
    case "worktree":
      return ops[0] === "list"
    case "reflog":
      return ops.length === 0 || ops[0] === "show"
    case "submodule":
      return ops.length === 0 || ops[0] === "status" || ops[0] === "summary"
    case "lfs":
      return ["ls-files", "status", "env", "version"].includes(ops[0] ?? "")
    case "bisect":
      return ["log", "visualize", "view"].includes(ops[0] ?? "")
    default:
      return false
  }
}

function inlineCode(v: View): boolean {
  const p = v.program
  if (p === "python" || p === "python2" || p === "python3" || p === "pypy" || p === "pypy3") return flag(v, "-c")
  if (p === "node" || p === "nodejs" || p === "bun") return flag(v, "-e", "-p", "--eval", "--print")
  if (p === "deno") return v.sub === "eval"
  if (p === "php") return flag(v, "-r")
  if (p === "vim" || p === "nvim") return flag(v, "-c", "--cmd", "-S")
  if (p === "emacs") return anyArg(v, /^--(eval|execute)/)
  return flag(v, "-e", "-E")
}
