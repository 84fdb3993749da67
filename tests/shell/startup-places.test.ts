import { describe, expect, test } from "bun:test"
import { STARTUP_PLACES, startupFile } from "../../core/shell/startup.ts"

// The start-up places became one list the patterns are built from (the sandbox reads the same list).
// Differential: the patterns as they were before, against the built ones, over every place with the
// wildcards filled, with tails, in both cases.
const OLD_SHELL = /^\.(bashrc|bash_profile|bash_login|bash_logout|bash_aliases|bash_completion|profile|zshrc|zprofile|zshenv|zlogin|zlogout|kshrc|mkshrc|cshrc|tcshrc|login|logout|inputrc|pam_environment|xprofile|xinitrc|xsession|xsessionrc|config\/fish\/config\.fish)$|^\.(bashrc\.d|zshrc\.d|profile\.d|config\/fish\/(conf\.d|functions)|config\/autostart|config\/environment\.d)(\/.*)?$/i
const OLD_PROGRAM = /^\.(lesskey|config\/lesskey|config\/zsh\/\.(zshrc|zshenv|zprofile|zlogin|zlogout)|oh-my-zsh\/custom\/.*|bash_it\/custom\/.*|config\/fish\/completions\/.*|local\/share\/jupyter\/kernels\/.*|npm-init\.js|gitconfig\.local|config\/(i3\/config|sway\/config|hypr\/hyprland\.conf|kitty\/kitty\.conf|ranger\/rc\.conf|lf\/lfrc|code\/user\/tasks\.json)|wezterm\.lua|vscode-server\/data\/machine\/settings\.json|gitconfig|hgrc|mavenrc|gradle\/init\.gradle(\.kts)?|config\/starship\.toml|config\/git\/config|cargo\/config(\.toml)?|direnvrc|config\/direnv\/direnvrc|vimrc|gvimrc|exrc|emacs|emacs\.el|gdbinit|config\/gdb\/gdbinit|pythonrc(\.py)?|codex\/config\.toml|config\/code\/user\/settings\.json|tmux\.conf|config\/tmux\/tmux\.conf|screenrc|curlrc|wgetrc|rprofile|irbrc|pryrc|psqlrc|sqliterc|bunfig\.toml|mailcap|forward|muttrc|gemrc|condarc|ghci|guile|sbclrc|lldbinit|pdbrc|perldb|erlang|mongoshrc\.js|mongorc\.js|octaverc|tclshrc|wishrc|lein\/profiles\.clj|julia\/config\/startup\.jl|yarnrc|yarnrc\.yml|local\/lib\/python[^/]*\/site-packages\/([^/]*\.pth|usercustomize\.py|sitecustomize\.py)|(config\/)?ipython\/profile_[^/]*\/ipython(_kernel)?_config\.py|xonshrc|config\/direnv\/direnv\.toml|spacemacs|config\/bat\/config|config\/yt-dlp\/config|config\/matplotlib\/matplotlibrc)$|^\.(config\/systemd\/user|config\/jupyter|config\/xonsh|config\/nushell|config\/mise|local\/share\/nvim\/site|config\/doom|config\/aria2|config\/containers|deno\/bin|gradle\/init\.d|jupyter|config\/powershell|sbt\/[^/]+\/plugins|vim|config\/nvim|emacs\.d|config\/emacs|ipython\/profile_[^/]*\/startup|config\/ipython\/profile_[^/]*\/startup)(\/.*)?$/i
const OLD_ON_PATH = /^(\.local\/bin|bin)(\/.*)?$/i
// the one change, on purpose: the four folders the old patterns took only below (`custom/.*`) count themselves too
const NOW_ALSO = /^\.(oh-my-zsh\/custom|bash_it\/custom|config\/fish\/completions|local\/share\/jupyter\/kernels)$/i
const old = (rel: string): boolean => OLD_SHELL.test(rel) || OLD_PROGRAM.test(rel) || OLD_ON_PATH.test(rel) || NOW_ALSO.test(rel)

describe("start-up places", () => {
  test("the built patterns decide as the old ones over every place, filled and with tails", () => {
    const corpus = [...STARTUP_PLACES.map((p) => p.rel), ".local/lib/python3.11/site-packages/foo.pth", ".sbt/1.0/plugins/a", "foo", ".config", ".local", ".local/lib", ".bashrcx", ".cargo", ".gitconfig/x", ".vimrc.bak", "x/.bashrc"]
    let compared = 0
    for (const rel of corpus) for (const tail of ["", "/x", "/a/b", "x", ".bak"]) for (const v of [rel, rel.toUpperCase()]) {
      const path = v.replace(/\*/g, "abc") + tail
      expect({ path, now: startupFile(`/home/u/${path}`, "/home/u") !== undefined }).toEqual({ path, now: old(path) })
      compared++
    }
    expect(compared).toBeGreaterThan(1000)
  })

  test("a folder place counts itself and all below it; a file place only itself", () => {
    expect(startupFile("/home/u/.oh-my-zsh/custom", "/home/u")).toBeDefined()
    expect(startupFile("/home/u/.codex/config.toml", "/home/u")).toContain("startup file")
    expect(startupFile("/home/u/.codex/config.toml.bak", "/home/u")).toBeUndefined()
    expect(STARTUP_PLACES.find((p) => p.rel === ".config/nvim")?.dir).toBe(true)
  })
})
