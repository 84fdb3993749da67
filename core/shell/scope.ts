// What the analysed script knows as it goes: its variables, exports, loader variables it set, and the
// directories it may be in. Pure data; subshells get a child scope so their changes stay inside.
import type { Lookup } from "./word.ts"
import { looksSecretVariable } from "../base/secretname.ts"

/** Candidate working directories (after `cd X;` either may hold); null when unknown. */
export type Cwd = string[] | null

export interface Scope {
  parent?: Scope
  /** assigned by the script: a value, or undefined when it cannot be known */
  vars: Map<string, string | undefined>
  exported: Set<string>
  /** loader/config variables (LD_PRELOAD, PATH, GIT_*, ...) this script has set */
  loader: string[]
  /** the function bodies being walked (a body calling itself in the background is a fork bomb) */
  functions: string[]
  /** variables declared -i: what they are assigned is evaluated as arithmetic */
  integers?: Set<string>
  /** variables the script made arrays (`a=(..)`, `declare -a`/`-A`): declare parses a quoted `(..)` given
   *  them again; true for an associative one (its subscripts are keys, not arithmetic) */
  arrays?: Map<string, boolean>
  /** the directory stack's entries the script made known (`pushd -n DIR`): `~1`, `~2`, ...; the ones
   *  past them are not known. Unset: the parent's */
  dirs?: string[]
  /** `shopt -s cdable_vars` is on (true) or off (false) from here; unset: the parent's */
  cdableVars?: boolean
  /** `set -a` / `set -o allexport` is on (true) or off (false) from here; unset: the parent's */
  allexport?: boolean
  /** brace expansion is on (`set -B`, the default), off (`set +B`, `set +o braceexpand`) or not known
   *  (`set $X`) from here; unset: the parent's */
  braceexpand?: boolean | "unknown"
  /** namerefs (`declare -n r=X`): the variable each one names; undefined until its first assignment names one */
  refs?: Map<string, string | undefined>
  /** variables a trap handler or a function body sets, at times not known: a value given them is not known */
  volatile?: Set<string>
  /** a trap handler or a function changes the directory at times not known: every later cwd is unknown */
  cwdLost?: boolean
  /** a cd, pushd or popd ran here: $PWD is the directory the walk tracks, not the environment's */
  moved?: boolean
  /** a function body: it runs when the function is called, after assignments the walk has not met yet,
   *  so a variable it does not set itself has no known value there */
  late?: boolean
}

export interface ShellEnv {
  home: string
  /** the environment the command runs with; undefined: unknown, so variables not set by the script are unknown */
  env?: Record<string, string | undefined>
  /** where the walk records the secret variables (looksSecretVariable: by name, or by the value the
   *  environment gives them) it expands without the script having set them */
  secretsRead?: Set<string>
}

/** A shell's top level: what it inherited from its parent is in its environment, so exported again. */
export function rootScope(inherited?: Map<string, string | undefined>, loader: string[] = []): Scope {
  const vars = new Map(inherited ?? [])
  return { vars, exported: new Set(vars.keys()), loader: [...loader], functions: [] }
}

export function childScope(parent: Scope): Scope {
  return { parent, vars: new Map(), exported: new Set(), loader: [], functions: parent.functions }
}

/**
 * A variable's value as the script sees it here: the script's own, else the environment's. `cwd`: where
 * the shell is at that point; $PWD the script did not assign follows it (bash sets PWD on every cd,
 * pushd and popd), unknown when more than one directory may hold. Without `cwd` $PWD is unknown once the
 * script may have moved. A nameref (`declare -n r=X`) reads the variable it names.
 */
export function makeLookup(scope: Scope, shell: ShellEnv, cwd?: Cwd): Lookup {
  const lookup: Lookup = (name) => {
    const target = refTarget(scope, name)
    if (target !== undefined) return lookup(target)
    for (let s: Scope | undefined = scope; s; s = s.parent) {
      if (s.vars.has(name)) return s.vars.get(name)
      if (s.late) {
        // a function body or a trap handler: no value is known here, but a secret the script never set
        // (`echo() { case $GITHUB_TOKEN in ...; }`) is the inherited one when it runs
        if (shell.secretsRead && !setAbove(s.parent, name) && looksSecretVariable(name, shell.env)) shell.secretsRead.add(name)
        return undefined
      }
    }
    if (name === "PWD") {
      if (cwd !== undefined) return cwd?.length === 1 ? cwd[0] : undefined
      if (moved(scope)) return undefined
    }
    if (shell.secretsRead && looksSecretVariable(name, shell.env)) shell.secretsRead.add(name)
    if (name === "HOME") return shell.env?.HOME ?? shell.home
    if (!shell.env) return undefined
    return Object.hasOwn(shell.env, name) ? (shell.env[name] ?? "") : ""
  }
  return lookup
}

function setAbove(scope: Scope | undefined, name: string): boolean {
  for (let s = scope; s; s = s.parent) if (s.vars.has(name)) return true
  return false
}

/** The variable a nameref names, following a chain of them (undefined: `name` is no nameref, or one that
 *  names nothing yet). */
export function refTarget(scope: Scope, name: string): string | undefined {
  let refs: Map<string, string | undefined> | undefined
  for (let s: Scope | undefined = scope; s && !refs; s = s.parent) refs = s.refs
  if (!refs?.has(name)) return undefined
  let at: string | undefined = name
  for (let i = 0; i < 8 && at !== undefined && refs.has(at); i++) at = refs.get(at)
  return at === undefined || refs.has(at) ? undefined : at.replace(/\[.*$/s, "")
}

/** The script changed the directory here (cd, pushd, popd, or a trap or function at times not known). */
function moved(scope: Scope): boolean {
  for (let s: Scope | undefined = scope; s; s = s.parent) if (s.moved || s.cwdLost) return true
  return false
}

/** The known entries of the directory stack below the current directory (`~1` first). */
export function dirStack(scope: Scope): string[] {
  for (let s: Scope | undefined = scope; s; s = s.parent) if (s.dirs) return s.dirs
  return []
}

export function loaderIn(scope: Scope): string[] {
  if (!scope.parent && !scope.loader.length) return []
  const out: string[] = []
  for (let s: Scope | undefined = scope; s; s = s.parent) out.push(...s.loader)
  return out
}

/** Variables a child process inherits that the script itself set (for `bash -c`, `sudo`, ...). */
export function exportedVars(scope: Scope): Map<string, string | undefined> {
  let any = false
  for (let s: Scope | undefined = scope; s && !any; s = s.parent) any = s.exported.size > 0
  if (!any) return NONE
  const out = new Map<string, string | undefined>()
  const chain: Scope[] = []
  for (let s: Scope | undefined = scope; s; s = s.parent) chain.unshift(s)
  for (const s of chain) for (const name of s.exported) out.set(name, lookupIn(s, name))
  return out
}

const NONE: Map<string, string | undefined> = new Map()

function lookupIn(scope: Scope, name: string): string | undefined {
  for (let s: Scope | undefined = scope; s; s = s.parent) if (s.vars.has(name)) return s.vars.get(name)
  return undefined
}

// Variables that load code or change how programs start; an allow rule never covers them.
// (BASH_CMDS and BASH_ALIASES are the hash and alias tables as arrays: like hash -p, a name then runs another program)
const LOADER_EXACT = new Set([
  "NODE_OPTIONS", "NODE_PATH", "PYTHONPATH", "PYTHONSTARTUP", "PYTHONHOME", "PERL5LIB", "PERL5OPT", "PERLLIB", "RUBYOPT",
  "RUBYLIB", "PATH", "BASH_ENV", "BASH_CMDS", "BASH_ALIASES", "ENV", "SHELLOPTS", "BASHOPTS", "PROMPT_COMMAND", "IFS", "PS4", "EDITOR", "VISUAL",
  "PAGER", "LESSOPEN", "LESSCLOSE", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS", "DOTNET_STARTUP_HOOKS",
  "ZDOTDIR", "BROWSER", "MANPAGER", "SYSTEMD_PAGER", "GIT_SSH", "SSH_ASKPASS", "SUDO_ASKPASS", "CDPATH", "GLOBIGNORE",
  // configuration that names programs a tool runs (rg --pre, make --eval, go -toolexec, a cargo runner)
  "RIPGREP_CONFIG_PATH", "MAKEFLAGS", "MFLAGS", "GNUMAKEFLAGS", "GOFLAGS", "RUSTC_WRAPPER", "RUSTC", "RUSTC_WORKSPACE_WRAPPER",
  "CURL_HOME", "WGETRC", "BAT_PAGER", "BAT_CONFIG_PATH", "MANOPT", "PERL5DB", "AWKPATH", "AWKLIBPATH", "TAR_OPTIONS",
  "GREP_OPTIONS", "LESS", "MORE", "XDG_CONFIG_HOME", "HOME",
  // bash turns posix mode on when it is set: aliases expand, quotes inside "${…}" read otherwise
  "POSIXLY_CORRECT",
  // glibc loads gconv modules (shared libraries) from GCONV_PATH for any charset conversion; locale,
  // terminfo and less key files are parsed by every program that starts, key files bind shell commands
  "GCONV_PATH", "LOCPATH", "NLSPATH", "TERMINFO", "TERMINFO_DIRS", "LESSKEY", "LESSKEYIN", "LESSKEY_SYSTEM", "LESSKEYIN_SYSTEM",
  "MALLOC_CONF", "GLIBC_TUNABLES", "HOSTALIASES", "RES_OPTIONS", "LOCALDOMAIN", "INPUTRC", "PYTHONWARNINGS", "PYTHONBREAKPOINT",
  // Python's site module runs the `import` lines of .pth files under $PYTHONUSERBASE (yq is Python);
  // file(1) loads its magic database from $MAGIC and quotes the lines it cannot parse
  "PYTHONUSERBASE", "MAGIC",
  // Bun (ccode itself is a Bun binary) reads options from BUN_OPTIONS (`--preload=FILE` runs FILE first), turns
  // any compiled Bun program into the bun CLI under BUN_BE_BUN, and opens a debugger for BUN_INSPECT*
  "BUN_OPTIONS", "BUN_BE_BUN", "BUN_INSPECT", "BUN_INSPECT_CONNECT_TO", "BUN_INSPECT_PRELOAD", "NODE_INSPECT_RESUME_ON_START",
  // Info-ZIP reads options from these (ZIPOPT='-TT CMD' makes zip -T run CMD; UNZIP='-d DIR' moves the output)
  "ZIPOPT", "ZIP", "UNZIP", "UNZIPOPT",
  // the shell or program a tool starts: flock -c, script -c, make, parallel run `$SHELL -c CMD`; fc runs
  // $FCEDIT; rsync and cvs reach the remote through $RSYNC_RSH / $CVS_RSH; parallel reads options from $PARALLEL
  "SHELL", "PARALLEL_SHELL", "PARALLEL", "FCEDIT", "SUDO_EDITOR", "RSYNC_RSH", "RSYNC_CONNECT_PROG", "CVS_RSH", "SVN_SSH", "SVN_EDITOR",
  "KUBE_EDITOR", "SYSTEMD_EDITOR", "GH_EDITOR", "GH_PAGER", "GH_BROWSER", "GLAB_PAGER", "AWS_PAGER", "PSQL_PAGER", "DIFFPROG", "KUBECTL_EXTERNAL_DIFF",
  // configuration files whose entries run programs: kubeconfig exec plugins, AWS credential_process, docker
  // credential helpers, gpg-agent's pinentry-program, terraform provider overrides, helm plugins
  "KUBECONFIG", "AWS_CONFIG_FILE", "DOCKER_CONFIG", "GNUPGHOME", "TF_CLI_CONFIG_FILE", "HELM_PLUGINS", "CLOUDSDK_CONFIG",
  // man's formatter: the troff binaries, their options (-U is unsafe mode: .sy runs) and macro files; the font
  // path holds devDEV/DESC, whose `postpro`/`prepro` lines name the programs groff runs; the command prefix is
  // put before troff/tbl/pic/eqn/refer/soelim (a path prefix runs a workspace program); the typesetter picks
  // the device (and its postprocessor); MANROFFSEQ adds preprocessors, REFER names refer's database;
  // MAN_DISABLE_SECCOMP drops man-db's sandbox of the formatters; MANLESS is put into less's options
  "GROFF_BIN_PATH", "GROFF_TMAC_PATH", "MANROFFOPT", "GROFF_FONT_PATH", "GROFF_COMMAND_PREFIX", "GROFF_TYPESETTER",
  "MANROFFSEQ", "REFER", "MAN_DISABLE_SECCOMP", "MANLESS",
  // OpenSSL's configuration file loads engines and providers (shared libraries) in every program that starts OpenSSL
  "OPENSSL_CONF", "OPENSSL_ENGINES", "OPENSSL_MODULES",
  // where `history -w`/`-a` write the history `history -s` fills
  "HISTFILE",
  // bash translates $"..." through the message catalog these name, then expands the translation
  "TEXTDOMAIN", "TEXTDOMAINDIR",
])

// Python's variables that only tune a run; every other PYTHON* variable counts as a loader variable
// (PYTHONPLATLIBDIR moves the standard library, PYTHONPYCACHEPREFIX where bytecode is written, PYTHONINSPECT
// reads code from stdin after the script)
const PYTHON_TUNING = new Set([
  "PYTHONUNBUFFERED", "PYTHONDONTWRITEBYTECODE", "PYTHONHASHSEED", "PYTHONIOENCODING", "PYTHONUTF8", "PYTHONFAULTHANDLER",
  "PYTHONNOUSERSITE", "PYTHONSAFEPATH", "PYTHONOPTIMIZE", "PYTHONCOERCECLOCALE", "PYTHONTRACEMALLOC", "PYTHONPROFILEIMPORTTIME",
  "PYTHONASYNCIODEBUG", "PYTHONNODEBUGRANGES", "PYTHONINTMAXSTRDIGITS", "PYTHONWARNDEFAULTENCODING", "PYTHONDEVMODE", "PYTHONVERBOSE",
  "PYTHONDEBUG", "PYTHONMALLOCSTATS", "PYTHONLEGACYWINDOWSSTDIO", "PYTHONCASEOK",
])

export function isLoaderVar(name: string): boolean {
  return LOADER_EXACT.has(name) || (name.startsWith("PYTHON") && !PYTHON_TUNING.has(name)) || name.startsWith("LD_") || name.startsWith("DYLD_") || name.startsWith("GIT_") || name.startsWith("BASH_FUNC_") ||
    // npm_config_script_shell, CARGO_TARGET_*_RUNNER, YARN_*: package managers read their options from these
    /^(npm_config_|NPM_CONFIG_|CARGO_|YARN_|BUN_CONFIG_|PNPM_)/.test(name)
}
