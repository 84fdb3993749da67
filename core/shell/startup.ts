// The files in a home folder that a shell, a session or an everyday program reads at start and can run
// programs from: a write there runs code later, in every new shell, repository, editor or interpreter
// (~/.gitconfig's core.fsmonitor runs on every `git status`, a site-packages .pth line in every python).
// Judged for shell writes and for the host tools' writes alike. Names compared ignoring case. Pure.
import { isInsideFold } from "./cwd.ts"

// shell and session start-up files, and the folders whose every file a shell or the session sources at
// start (Fedora's ~/.bashrc sources ~/.bashrc.d/*, fish autoloads conf.d and functions): a write there,
// the folder itself included (`git clone . ~/.bashrc.d`), is one to a startup file
const SHELL_FILES = [
  ".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".bash_aliases", ".bash_completion", ".profile", ".zshrc", ".zprofile", ".zshenv",
  ".zlogin", ".zlogout", ".kshrc", ".mkshrc", ".cshrc", ".tcshrc", ".login", ".logout", ".inputrc", ".pam_environment", ".xprofile", ".xinitrc",
  ".xsession", ".xsessionrc", ".config/fish/config.fish",
]
const SHELL_DIRS = [".bashrc.d", ".zshrc.d", ".profile.d", ".config/fish/conf.d", ".config/fish/functions", ".config/autostart", ".config/environment.d"]
// programs' own start-up files and folders that name commands to run: git (core.fsmonitor, core.pager),
// systemd user units, python (.pth import lines, usercustomize), IPython, cargo (build.rustc-wrapper),
// direnv, editors (vim, neovim, emacs, VS Code), gdb, tmux, screen, curl/wget, R, irb, psql, sqlite,
// bun (preload), yarn (yarnPath), codex, mercurial hooks, gradle init scripts, mvn's .mavenrc, starship;
// mail (.mailcap and mutt's commands, .forward's `|cmd`), gem and conda settings, REPL and debugger start-up
// files (ghci, guile, sbcl, lldb, pdb, perl's debugger, erlang, mongosh, octave, tcl, leiningen, julia),
// Jupyter's config folder, PowerShell profiles, sbt's global plugins; less's lesskey source (`#env
// LESSOPEN=|cmd` runs cmd on every `less`), a ZDOTDIR zsh setup, oh-my-zsh and bash-it custom scripts, fish
// completions (autoloaded), Jupyter kernels (their argv), npm's init script, a git config included by
// ~/.gitconfig, window managers' and terminals' settings (exec lines), file managers' rc files, VS Code's tasks
// and a remote VS Code server's settings. `*` stands for any part of one name.
const PROGRAM_FILES = [
  ".lesskey", ".config/lesskey", ".config/zsh/.zshrc", ".config/zsh/.zshenv", ".config/zsh/.zprofile", ".config/zsh/.zlogin", ".config/zsh/.zlogout",
  ".npm-init.js", ".gitconfig.local", ".config/i3/config", ".config/sway/config", ".config/hypr/hyprland.conf", ".config/kitty/kitty.conf",
  ".config/ranger/rc.conf", ".config/lf/lfrc", ".config/Code/User/tasks.json", ".wezterm.lua", ".vscode-server/data/Machine/settings.json",
  ".gitconfig", ".hgrc", ".mavenrc", ".gradle/init.gradle", ".gradle/init.gradle.kts", ".config/starship.toml", ".config/git/config",
  ".cargo/config", ".cargo/config.toml", ".direnvrc", ".config/direnv/direnvrc", ".vimrc", ".gvimrc", ".exrc", ".emacs", ".emacs.el", ".gdbinit",
  ".config/gdb/gdbinit", ".pythonrc", ".pythonrc.py", ".codex/config.toml", ".config/Code/User/settings.json", ".tmux.conf", ".config/tmux/tmux.conf",
  ".screenrc", ".curlrc", ".wgetrc", ".Rprofile", ".irbrc", ".pryrc", ".psqlrc", ".sqliterc", ".bunfig.toml", ".mailcap", ".forward", ".muttrc",
  ".gemrc", ".condarc", ".ghci", ".guile", ".sbclrc", ".lldbinit", ".pdbrc", ".perldb", ".erlang", ".mongoshrc.js", ".mongorc.js", ".octaverc",
  ".tclshrc", ".wishrc", ".lein/profiles.clj", ".julia/config/startup.jl", ".yarnrc", ".yarnrc.yml",
  ".local/lib/python*/site-packages/*.pth", ".local/lib/python*/site-packages/usercustomize.py", ".local/lib/python*/site-packages/sitecustomize.py",
  ".ipython/profile_*/ipython_config.py", ".ipython/profile_*/ipython_kernel_config.py",
  ".config/ipython/profile_*/ipython_config.py", ".config/ipython/profile_*/ipython_kernel_config.py",
  ".xonshrc", ".config/direnv/direnv.toml", ".spacemacs", ".config/bat/config", ".config/yt-dlp/config", ".config/matplotlib/matplotlibrc",
]
const PROGRAM_DIRS = [
  ".oh-my-zsh/custom", ".bash_it/custom", ".config/fish/completions", ".local/share/jupyter/kernels",
  ".config/systemd/user", ".config/jupyter", ".config/xonsh", ".config/nushell", ".config/mise", ".local/share/nvim/site", ".config/doom",
  ".config/aria2", ".config/containers", ".deno/bin", ".gradle/init.d", ".jupyter", ".config/powershell", ".sbt/*/plugins", ".vim", ".config/nvim",
  ".emacs.d", ".config/emacs", ".ipython/profile_*/startup", ".config/ipython/profile_*/startup",
]
// the user's own program folders, which most distributions' ~/.profile puts first on PATH (Debian's adds
// ~/bin as well as ~/.local/bin when they exist)
const ON_PATH_DIRS = [".local/bin", "bin"]

const SHELL = matcher(SHELL_FILES, SHELL_DIRS)
const PROGRAM = matcher(PROGRAM_FILES, PROGRAM_DIRS)
const ON_PATH = matcher([], ON_PATH_DIRS)

/** Every start-up file and folder above, relative to the home (`*`: any part of one name; `dir`: all
 *  below it counts): what the sandbox keeps read-only in a home that is a writable root. */
export const STARTUP_PLACES: readonly { rel: string; dir: boolean }[] = [
  ...[...SHELL_FILES, ...PROGRAM_FILES].map((rel) => ({ rel, dir: false })),
  ...[...SHELL_DIRS, ...PROGRAM_DIRS, ...ON_PATH_DIRS].map((rel) => ({ rel, dir: true })),
]

/** A place (or one name of it) as a pattern's source: `*` is any part of one name. */
export function placeSource(place: string): string {
  return place.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^/]*")
}

// the names (and folders with all below them) as one case-blind pattern
function matcher(files: readonly string[], dirs: readonly string[]): RegExp {
  const alt = (list: readonly string[]) => list.map(placeSource).join("|")
  return new RegExp(`^(?:(?:${alt(files) || "(?!)"})|(?:${alt(dirs) || "(?!)"})(?:/.*)?)$`, "i")
}

/** Why writing `path` (absolute) is writing a startup file of the home `home`; undefined when it is not. */
export function startupFile(path: string, home: string): string | undefined {
  if (!home || !isInsideFold(home, path) || path.length === home.length) return undefined
  const rel = path.slice(home === "/" ? 1 : home.length + 1)
  if (SHELL.test(rel)) return `writes to the shell startup file ${path}`
  if (PROGRAM.test(rel)) return `writes to the startup file ${path}: a program reads it at start and can run commands it names`
  if (ON_PATH.test(rel)) return `writes to the startup file ${path}: it is on the usual PATH (~/.local/bin, ~/bin), a program there runs in place of one of the same name`
  return undefined
}
