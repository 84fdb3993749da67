// The files in a home folder that a shell, a session or an everyday program reads at start and can run
// programs from: a write there runs code later, in every new shell, repository, editor or interpreter
// (~/.gitconfig's core.fsmonitor runs on every `git status`, a site-packages .pth line in every python).
// Judged for shell writes and for the host tools' writes alike. Names compared ignoring case. Pure.
import { isInsideFold } from "./cwd.ts"

// shell and session start-up files, and the folders whose every file a shell or the session sources at
// start (Fedora's ~/.bashrc sources ~/.bashrc.d/*, fish autoloads conf.d and functions): a write there,
// the folder itself included (`git clone . ~/.bashrc.d`), is one to a startup file
const SHELL = /^\.(bashrc|bash_profile|bash_login|bash_logout|bash_aliases|bash_completion|profile|zshrc|zprofile|zshenv|zlogin|zlogout|kshrc|mkshrc|cshrc|tcshrc|login|logout|inputrc|pam_environment|xprofile|xinitrc|xsession|xsessionrc|config\/fish\/config\.fish)$|^\.(bashrc\.d|zshrc\.d|profile\.d|config\/fish\/(conf\.d|functions)|config\/autostart|config\/environment\.d)(\/.*)?$/i
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
// and a remote VS Code server's settings
const PROGRAM = /^\.(lesskey|config\/lesskey|config\/zsh\/\.(zshrc|zshenv|zprofile|zlogin|zlogout)|oh-my-zsh\/custom\/.*|bash_it\/custom\/.*|config\/fish\/completions\/.*|local\/share\/jupyter\/kernels\/.*|npm-init\.js|gitconfig\.local|config\/(i3\/config|sway\/config|hypr\/hyprland\.conf|kitty\/kitty\.conf|ranger\/rc\.conf|lf\/lfrc|code\/user\/tasks\.json)|wezterm\.lua|vscode-server\/data\/machine\/settings\.json|gitconfig|hgrc|mavenrc|gradle\/init\.gradle(\.kts)?|config\/starship\.toml|config\/git\/config|cargo\/config(\.toml)?|direnvrc|config\/direnv\/direnvrc|vimrc|gvimrc|exrc|emacs|emacs\.el|gdbinit|config\/gdb\/gdbinit|pythonrc(\.py)?|codex\/config\.toml|config\/code\/user\/settings\.json|tmux\.conf|config\/tmux\/tmux\.conf|screenrc|curlrc|wgetrc|rprofile|irbrc|pryrc|psqlrc|sqliterc|bunfig\.toml|mailcap|forward|muttrc|gemrc|condarc|ghci|guile|sbclrc|lldbinit|pdbrc|perldb|erlang|mongoshrc\.js|mongorc\.js|octaverc|tclshrc|wishrc|lein\/profiles\.clj|julia\/config\/startup\.jl|yarnrc|yarnrc\.yml|local\/lib\/python[^/]*\/site-packages\/([^/]*\.pth|usercustomize\.py|sitecustomize\.py)|(config\/)?ipython\/profile_[^/]*\/ipython(_kernel)?_config\.py|xonshrc|config\/direnv\/direnv\.toml|spacemacs|config\/bat\/config|config\/yt-dlp\/config|config\/matplotlib\/matplotlibrc)$|^\.(config\/systemd\/user|config\/jupyter|config\/xonsh|config\/nushell|config\/mise|local\/share\/nvim\/site|config\/doom|config\/aria2|config\/containers|deno\/bin|gradle\/init\.d|jupyter|config\/powershell|sbt\/[^/]+\/plugins|vim|config\/nvim|emacs\.d|config\/emacs|ipython\/profile_[^/]*\/startup|config\/ipython\/profile_[^/]*\/startup)(\/.*)?$/i

// the user's own program folders, which most distributions' ~/.profile puts first on PATH (Debian's adds
// ~/bin as well as ~/.local/bin when they exist)
const ON_PATH = /^(\.local\/bin|bin)(\/.*)?$/i

/** Why writing `path` (absolute) is writing a startup file of the home `home`; undefined when it is not. */
export function startupFile(path: string, home: string): string | undefined {
  if (!home || !isInsideFold(home, path) || path.length === home.length) return undefined
  const rel = path.slice(home === "/" ? 1 : home.length + 1)
  if (SHELL.test(rel)) return `writes to the shell startup file ${path}`
  if (PROGRAM.test(rel)) return `writes to the startup file ${path}: a program reads it at start and can run commands it names`
  if (ON_PATH.test(rel)) return `writes to the startup file ${path}: it is on the usual PATH (~/.local/bin, ~/bin), a program there runs in place of one of the same name`
  return undefined
}
