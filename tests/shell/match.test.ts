// Rule patterns over parsed commands: `*` semantics, canonical deny matching, and allow rules that
// never allow more than they literally name.
import { beforeAll, describe, expect, test } from "bun:test"
import { analyzeShellSync, loadParser, matchCommandPattern, type SimpleCommand } from "../../core/shell/index.ts"

const ctx = { cwd: "/home/dev/project", workspace: "/home/dev/project", home: "/home/dev", env: { HOME: "/home/dev", PATH: "/usr/bin:/bin" } }

beforeAll(() => loadParser())

function parts(command: string): SimpleCommand[] {
  return analyzeShellSync(command, ctx).commands
}

function only(command: string): SimpleCommand {
  const all = parts(command)
  expect(all).toHaveLength(1)
  return all[0]!
}

const allows = (pattern: string, command: string) => parts(command).every((p) => matchCommandPattern(pattern, p, "allow"))
const denies = (pattern: string, command: string) => parts(command).some((p) => matchCommandPattern(pattern, p, "restrict"))

describe("token patterns", () => {
  test("a pattern that is only * matches every command, with any arguments and any program path", () => {
    for (const cmd of ["rm -rf build", "ls", "/usr/bin/git push origin main", "./deploy.sh --prod", "echo a && rm -r b"]) {
      expect({ cmd, denied: denies("*", cmd) }).toEqual({ cmd, denied: true })
    }
    expect(allows("*", "git status && ls -la")).toBe(true)
    // an allow still never covers what cannot be resolved or runs with loader variables
    expect(allows("*", "$CMD -rf /")).toBe(false)
    expect(allows("*", "LD_PRELOAD=/tmp/x.so ls")).toBe(false)
  })

  test("a bare * token matches any number of words, including none", () => {
    expect(allows("git commit *", "git commit")).toBe(true)
    expect(allows("git commit *", "git commit -m 'fix: a b'")).toBe(true)
    expect(allows("git * main", "git push origin main")).toBe(true)
    expect(allows("git * main", "git push origin dev")).toBe(false)
  })

  test("without a trailing * the command may have no further words", () => {
    expect(allows("git status", "git status")).toBe(true)
    expect(allows("git status", "git status --short")).toBe(false)
  })

  test("* inside a token matches within that token only", () => {
    expect(allows("npm run test:*", "npm run test:unit")).toBe(true)
    expect(allows("npm run test:*", "npm run build")).toBe(false)
    expect(allows("ls*", "lsof")).toBe(true)
    expect(allows("ls*", "ls -la")).toBe(false)
  })

  test("patterns are split with shell quoting: a quoted phrase is one token", () => {
    expect(allows('git commit -m "fix bug"', "git commit -m 'fix bug'")).toBe(true)
    expect(allows('git commit -m "fix bug"', "git commit -m fix bug")).toBe(false)
    expect(allows("echo '*'", "echo anything")).toBe(false)
    expect(allows("echo '*'", "echo '*'")).toBe(true)
  })

  test("patterns compare with the normalised command: basename, wrappers, assignments and git globals removed", () => {
    expect(allows("git status", "/usr/bin/git status")).toBe(true)
    expect(allows("bun test *", "timeout 60 nice bun test")).toBe(true)
    expect(allows("bun test *", "NODE_ENV=test bun test")).toBe(true)
    expect(allows("git push *", "git -C repo --no-pager push origin")).toBe(true)
  })
})

describe("deny and ask rules also see the canonical form", () => {
  const spellings = ["rm -rf /", "rm -fr /", "rm -r -f /", "rm --recursive --force /", "rm -rfv /", "rm -Rf /", "rm -f -r / --verbose"]
  for (const cmd of spellings) {
    test(`deny "rm -rf / *" stops ${cmd}`, () => {
      expect(denies("rm -rf / *", cmd)).toBe(true)
    })
  }

  test("flags after operands are still flags", () => {
    expect(denies("rm -rf *", "rm x -rf")).toBe(true)
    expect(denies("git push --force *", "git push origin main --force")).toBe(true)
    expect(denies("git push --force *", "git push origin main -f")).toBe(true)
  })

  test("extra flags only where the pattern has a * token", () => {
    expect(denies("rm -rf /", "rm -rfv /")).toBe(false)
    expect(denies("rm -rf / *", "rm -rfv /")).toBe(true)
  })

  test("every flag the pattern names must be there", () => {
    expect(denies("rm -rf *", "rm -r build")).toBe(false)
    expect(denies("git push --force *", "git push origin main")).toBe(false)
  })

  test("a long flag with a value still counts as that flag", () => {
    expect(denies("git push --force-with-lease *", "git push --force-with-lease=main origin main")).toBe(true)
  })

  test("git branch -D is --delete --force", () => {
    expect(denies("git branch --delete --force *", "git branch -D old")).toBe(true)
    expect(denies("git branch -D *", "git branch --delete --force old")).toBe(true)
  })
})

describe("allow rules never allow a spelling they do not literally name", () => {
  test("allow: rm -rf build covers only that spelling", () => {
    expect(allows("rm -rf build", "rm -rf build")).toBe(true)
    for (const other of ["rm -fr build", "rm -r -f build", "rm --recursive --force build", "rm build -rf", "rm -rf build /"]) {
      expect(allows("rm -rf build", other)).toBe(false)
    }
  })

  test("an allow must cover every part: a chain after an allowed prefix is not covered", () => {
    expect(allows("git status *", "git status && rm -rf x")).toBe(false)
    expect(allows("git status *", "git status $(rm -rf x)")).toBe(false)
    expect(allows("find *", "find . -exec rm {} \\;")).toBe(false)
    expect(allows("xargs *", "xargs rm")).toBe(false)
    expect(allows("sudo *", "sudo rm x")).toBe(false)
  })

  test("a program from the workspace is not the system's program", () => {
    expect(allows("git status", "./git status")).toBe(false)
    expect(allows("git status", "bin/git status")).toBe(false)
    expect(allows("./scripts/test.sh", "./scripts/test.sh")).toBe(true)
    expect(denies("rm -rf / *", "./rm -rf /")).toBe(true)
  })

  test("loader variables and unresolvable commands are never allowed", () => {
    expect(matchCommandPattern("ls *", only("LD_PRELOAD=/tmp/x.so ls"), "allow")).toBe(false)
    expect(matchCommandPattern("git status", only("GIT_DIR=/tmp/x git status"), "allow")).toBe(false)
    expect(matchCommandPattern("* *", only("$CMD args"), "allow")).toBe(false)
    expect(matchCommandPattern("ls *", only("LD_PRELOAD=/tmp/x.so ls"), "restrict")).toBe(true)
  })
})
