// The repository config read the way git's own parser reads it: a trailing backslash continues a value
// but not a comment, `\\` at the end is an escaped backslash, quotes keep `;` and `#`. Each case's
// expected entries are also checked against `git config --file F --list -z` (the git on this machine),
// and random configs made of the characters that matter must read the same both ways.
import { afterAll, describe, expect, test } from "bun:test"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { configRunsIn, parseConfig, runs, type ConfigEntry } from "../../core/base/gitconfig.ts"
import { removeTree } from "../tmp.ts"

const dir = mkdtempSync(join(tmpdir(), "ccode-gitparse-"))
afterAll(() => removeTree(dir))

let n = 0
/** What git itself reads from the text: its entries, or "error" when it refuses the file. */
function gitReads(text: string): ConfigEntry[] | "error" {
  const f = join(dir, `c${n++}`)
  writeFileSync(f, text)
  const r = Bun.spawnSync(["git", "config", "--file", f, "--list", "-z"], { env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: dir, GIT_CONFIG_NOSYSTEM: "1" } })
  if (r.exitCode !== 0) return "error"
  const out = r.stdout.toString()
  return out.split("\0").slice(0, -1).map((e) => {
    const nl = e.indexOf("\n")
    return nl < 0 ? { key: e, value: null } : { key: e.slice(0, nl), value: e.slice(nl + 1) }
  })
}
const ours = (text: string) => {
  const r = parseConfig(text)
  return typeof r === "string" ? "error" : r
}
const e = (key: string, value: string | null): ConfigEntry => ({ key, value })

describe("config lines read as git reads them", () => {
  const cases: [string, string, ConfigEntry[] | "error"][] = [
    // the attack lines: a comment that ends in a backslash, an escaped backslash at the end
    ["a comment ending in \\ does not continue", "[core]\n\teditor = vi ; see docs \\\n\tfsmonitor = \"cat /root/.netrc >&2; false\"\n", [e("core.editor", "vi"), e("core.fsmonitor", "cat /root/.netrc >&2; false")]],
    ["a # comment ending in \\ does not continue", "[core]\n\teditor = vi # docs \\\n\tfsmonitor = x\n", [e("core.editor", "vi"), e("core.fsmonitor", "x")]],
    ["\\\\ at the end is an escaped backslash", "[core]\n\tx = a\\\\\n\tfsmonitor = b\n", [e("core.x", "a\\"), e("core.fsmonitor", "b")]],
    ["a comment line ending in \\ does not continue", "# note \\\n[core]\n\tfsmonitor = x\n", [e("core.fsmonitor", "x")]],
    ["; comment line ending in \\", "[core]\n; note \\\nfsmonitor = x\n", [e("core.fsmonitor", "x")]],
    // real continuations: the next line is value, not a key
    ["\\ at the end continues", "[core]\n\tx = a \\\n\tfsmonitor = b\n", [e("core.x", "a  fsmonitor = b")]],
    ["\\\\\\ is a backslash, then a continuation", "[core]\n\tx = a\\\\\\\n\tfsmonitor = b\n", [e("core.x", "a\\ fsmonitor = b")]],
    ["a continuation inside quotes", "[core]\n\tx = \"a ;\\\n b\"\n", [e("core.x", "a ; b")]],
    ["an empty value continued", "[core]\n\tx = \\\n\tfsmonitor = z\n", [e("core.x", "fsmonitor = z")]],
    ["\\ at the end of the file", "[core]\n\tx = a\\", [e("core.x", "a")]],
    // quotes and comments
    ["; and # inside quotes are value", "[core]\n\tx = \"a ; b # c\"\n", [e("core.x", "a ; b # c")]],
    ["a quote inside a comment is comment", "[core]\n\tx = a # \"\n\tfsmonitor = y\n", [e("core.x", "a"), e("core.fsmonitor", "y")]],
    ["quotes join with the rest", "[core]\n\tx = a\"b c\"d  \n", [e("core.x", "ab cd")]],
    ["a newline inside quotes is refused", "[core]\n\tx = \"a\n\tfsmonitor = y\"\n", "error"],
    ["an unknown escape is refused", "[core]\n\tx = a\\q\n", "error"],
    ["escapes", "[core]\n\tx = \"\\t\\\"\\n\"\n", [e("core.x", "\t\"\n")]],
    // keys, sections
    ["a key after the header", "[core] fsmonitor = y\n", [e("core.fsmonitor", "y")]],
    ["a key with no value", "[core]\n\tbare\n\tfilemode \n", [e("core.bare", null), e("core.filemode", null)]],
    ["a subsection keeps its case, drops a backslash", "[Diff \"A\\q\"]\n\tTextConv = t\n", [e("diff.Aq.textconv", "t")]],
    ["the old dotted subsection is lower-cased", "[Diff.X]\n\tCommand = d\n", [e("diff.x.command", "d")]],
    ["CRLF line ends and a byte-order mark", "\uFEFF[core]\r\n\tx = 1\r\n\tfsmonitor = y\r\n", [e("core.x", "1"), e("core.fsmonitor", "y")]],
    ["a second header on the same line", "[core][diff]\n\texternal = d\n", [e("diff.external", "d")]],
    ["a space after the subsection's quote is refused", "[diff \"x\" ]\n\tcommand = d\n", "error"],
    ["an unclosed header is refused", "[core\n\tfsmonitor = y\n", "error"],
    ["a key that does not start with a letter is refused", "[core]\n\t1x = y\n", "error"],
    ["a key followed by a comment is refused", "[core]\n\tbare # c\n", "error"],
  ]

  test.each(cases)("%s", (_, text, expected) => {
    expect(ours(text)).toEqual(expected)
    expect(gitReads(text)).toEqual(expected)
  })

  test("random configs of the characters that matter read the same as git reads them", () => {
    const pieces = ["[core]", "[diff \"x\"]", "\n", "\n", "\t", " ", "fsmonitor", "x", "=", "=", "\\", "\\\\", "\"", ";", "#", "a", "\r\n", "\\n"]
    let seed = 7
    const pick = (k: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648
      return seed % k
    }
    const differ: string[] = []
    for (let i = 0; i < 400; i++) {
      let text = "[core]\n"
      for (let j = 1 + pick(14); j > 0; j--) text += pieces[pick(pieces.length)]
      const git = gitReads(text)
      if (JSON.stringify(ours(text)) !== JSON.stringify(git)) differ.push(`${JSON.stringify(text)}: git ${JSON.stringify(git)} ours ${JSON.stringify(ours(text))}`)
    }
    expect(differ).toEqual([])
  })
})

describe("what a config makes which git command do", () => {
  test("the attack lines are caught: the fsmonitor after a continued-looking comment runs in every command", () => {
    expect(runs("[core]\n\teditor = vi ; see docs \\\n\tfsmonitor = \"cat /root/.netrc >&2; false\"\n")).toContain("core.fsmonitor")
    expect(runs("[core]\n\tx = a\\\\\n\tfsmonitor = \"cat /root/.netrc\"\n")).toContain("core.fsmonitor")
    // a real continuation makes it value: nothing runs
    expect(runs("[core]\n\tx = a \\\n\tfsmonitor = b\n")).toBeUndefined()
  })

  test.each([
    ["[core]\n\tworktree = /root\n", undefined],
    ["[core]\n\thooksPath = /tmp/hooks\n", undefined],
    ['[hook "x"]\n\tcommand = ./run\n\tevent = post-index-change\n', undefined],
    ["[gpg \"ssh\"]\n\tallowedSignersFile = /root/.netrc\n", ["log", "show", "whatchanged", "verify-commit", "verify-tag", "tag", "merge", "pull"]],
    ["[man]\n\tviewer = x\n", ["help"]],
    ['[man "x"]\n\tcmd = ./run\n', ["help"]],
    ["[blame]\n\tignoreRevsFile = /root/.netrc\n", ["blame", "annotate"]],
    ["[fsck]\n\tskipList = /root/.netrc\n", ["fsck"]],
    ["[core]\n\texcludesFile = /root/.netrc\n", ["check-ignore"]],
    ["[core]\n\tattributesFile = /root/.netrc\n", ["check-attr"]],
    ["[core]\n\teditor = ./e\n", ["commit", "merge", "rebase", "am", "cherry-pick", "revert", "pull"]],
    ["[credential]\n\thelper = ./h\n", ["fetch", "pull", "push", "clone", "ls-remote"]],
    ['[protocol "ext"]\n\tallow = always\n', ["fetch", "pull", "push", "clone", "ls-remote"]],
  ])("%j: %j", (text, commands) => {
    const r = configRunsIn(text)
    expect(r?.commands).toEqual(commands)
    expect(r?.why).toBeDefined()
  })

  test("a work tree or hooks folder inside the workspace is the workspace's own", () => {
    const place = { gitDir: join(dir, ".git"), workspace: dir }
    expect(configRunsIn("[core]\n\tworktree = ..\n\thooksPath = .husky\n", place)).toBeUndefined()
    expect(configRunsIn("[core]\n\tworktree = ../..\n", place)?.why).toContain("core.worktree")
    expect(configRunsIn("[core]\n\thooksPath = ../x\n", place)?.why).toContain("core.hookspath")
  })
})
