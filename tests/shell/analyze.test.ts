// What the analysis tells the policy engine about a command: its parts, where each sits, what they
// touch, how risky they are, and what cannot be known.
import { beforeAll, describe, expect, test } from "bun:test"
import { analyzeShell, analyzeShellSync, loadParser, type AnalyzeContext, type Construct } from "../../core/shell/index.ts"

const ctx: AnalyzeContext = { cwd: "/home/dev/project", workspace: "/home/dev/project", home: "/home/dev", env: { HOME: "/home/dev", PATH: "/usr/bin:/bin" } }
const analyze = (command: string, over: Partial<AnalyzeContext> = {}) => analyzeShellSync(command, { ...ctx, ...over })

beforeAll(() => loadParser())

describe("simple commands", () => {
  test("a command is split into program, unquoted arguments, assignments and redirects", () => {
    const a = analyze(`FOO=1 /usr/bin/git -C sub log --format="%h %s" > out.txt 2>>err.log < in.txt`)
    expect(a.commands).toHaveLength(1)
    const c = a.commands[0]!
    expect(c.program).toBe("git")
    expect(c.programPath).toBe("/usr/bin/git")
    expect(c.args).toEqual(["log", "--format=%h %s"])
    expect(c.assignments).toEqual([{ name: "FOO", value: "1" }])
    expect(c.redirects).toEqual([
      { op: ">", target: "out.txt", access: "write" },
      { op: ">>", target: "err.log", access: "append" },
      { op: "<", target: "in.txt", access: "read" },
    ])
  })

  test("transparent wrappers are removed and named", () => {
    const [c] = analyze("timeout 5 nice -n 2 env A=1 stdbuf -oL git status").commands
    expect(c!.program).toBe("git")
    expect(c!.args).toEqual(["status"])
    expect(c!.wrappers).toEqual(["timeout", "nice", "env", "stdbuf"])
    expect(c!.assignments).toEqual([{ name: "A", value: "1" }])
  })

  test("quoting tricks unquote to the real program", () => {
    for (const cmd of ["r''m x", '"rm" x', "\\rm x", "$'\\x72m' x", "r\\\nm x", "$'\\162'm x"]) {
      expect(analyze(cmd).commands.map((c) => [c.program, c.args])).toEqual([["rm", ["x"]]])
    }
  })

  test("program names that are also JavaScript object members are ordinary unknown programs", () => {
    for (const name of ["constructor", "toString", "__proto__", "hasOwnProperty", "valueOf"]) {
      const a = analyze(`./${name} --force x && ${name} -rf /`)
      expect(a.commands.map((c) => c.program)).toEqual([name, name])
      expect(a.risk).toBe("medium")
    }
    expect(analyze("rm -rf $constructor/x", { env: {} }).paths).toEqual([{ path: "/x", access: "write" }])
  })
})

describe("every construct is seen through", () => {
  const cases: [string, string, Construct[]][] = [
    ["a | b", "b", ["pipeline"]],
    ["a && b", "b", ["list"]],
    ["echo $(b)", "b", ["substitution"]],
    ["echo `b`", "b", ["substitution"]],
    ['echo "x $(b) y"', "b", ["substitution"]],
    ["echo --format=$(b)", "b", ["substitution"]],
    ["diff <(b) x", "b", ["process_substitution"]],
    ["tee >(b)", "b", ["process_substitution"]],
    ["(b)", "b", ["subshell"]],
    ["{ b; }", "b", ["group"]],
    ["if a; then b; fi", "b", ["condition", "list"]],
    ["for i in 1 2; do b; done", "b", ["loop"]],
    ["while a; do b; done", "b", ["loop", "list"]],
    ["case x in x) b;; esac", "b", ["case"]],
    ["f() { b; }", "b", ["function", "group"]],
    ["b &", "b", ["background"]],
    ["bash <<EOF\nb\nEOF", "b", ["heredoc"]],
    ["bash <<< b", "b", ["heredoc"]],
    ["bash -lc b", "b", ["shell_c"]],
    ["eval b", "b", ["eval"]],
    ["xargs b", "b", ["xargs"]],
    ["find . -exec b {} +", "b", ["find_exec"]],
    ["sudo b", "b", ["sudo"]],
    ["ssh host b", "b", ["ssh"]],
    ["watch b", "b", ["watch"]],
    ["parallel b ::: 1", "b", ["parallel"]],
  ]
  for (const [cmd, program, context] of cases) {
    test(`${cmd.replace(/\n/g, "\\n")}: ${program} sits in ${context.join(" > ")}`, () => {
      const found = analyze(cmd).commands.find((c) => c.program === program)
      expect(found?.context).toEqual(context)
    })
  }
})

describe("paths", () => {
  test("redirect targets and file operands resolve from cwd and a literal cd", () => {
    const a = analyze("cd sub && cat a.txt > ../out.txt && rm -f ~/tmp.txt")
    expect(a.paths).toContainEqual({ path: "/home/dev/project/sub/a.txt", access: "read" })
    expect(a.paths).toContainEqual({ path: "/home/dev/project/out.txt", access: "write" })
    expect(a.paths).toContainEqual({ path: "/home/dev/tmp.txt", access: "write" })
  })

  test("a walk that follows links marks its trees for the disk look-up, beside the plain read of them", () => {
    for (const cmd of ["grep -R key .", "rg -L key", "diff -r . src"]) {
      const a = analyze(cmd)
      expect(a.paths).toContainEqual({ path: "/home/dev/project", access: "read", follow: true })
    }
    const plain = analyze("grep -r key .")
    expect(plain.paths.some((p) => p.follow)).toBe(false)
  })

  test("after `cd X;` either directory may hold, so both are reported", () => {
    const a = analyze("cd build; rm x")
    expect(a.paths).toContainEqual({ path: "/home/dev/project/build/x", access: "write" })
    expect(a.paths).toContainEqual({ path: "/home/dev/project/x", access: "write" })
  })
})

describe("risk", () => {
  test("policy overrides change the level of named table entries", () => {
    const plain = analyze("git push origin main")
    expect(plain.risk).toBe("high")
    expect(plain.commands[0]!.classes).toContain("git-push")
    expect(analyze("git push origin main", { overrides: { "git-push": "low", "git-write": "low" } }).risk).toBe("low")
  })

  test("overrides cannot make an unresolvable command less than critical", () => {
    const a = analyze("$CMD x", { overrides: { unresolved: "low", unknown: "low" } })
    expect(a.risk).toBe("critical")
    expect(a.unresolvable).toBe(true)
  })

  test("the home directory comes from the context, and unset variables are empty", () => {
    expect(analyze('rm -rf "$HOME"', { env: {} }).risk).toBe("critical")
    expect(analyze("rm -rf $BUILD/", { env: { BUILD: "build" } }).risk).toBe("high")
    expect(analyze("rm -rf $BUILD/", { env: {} }).risk).toBe("critical")
  })

  test("with no environment given, a variable could hold anything", () => {
    expect(analyze("rm -rf $BUILD/", { env: undefined }).risk).toBe("critical")
    expect(analyze("echo $BUILD", { env: undefined }).risk).toBe("safe")
  })
})

describe("what cannot be parsed", () => {
  test("a parse error is unresolvable, and deny rules get a best-effort split", () => {
    const a = analyze("rm -rf / && (")
    expect(a.unresolvable).toBe(true)
    expect(a.parseError).toBeString()
    expect(a.risk).toBe("critical")
    expect(a.commands.map((c) => [c.program, c.args])).toContainEqual(["rm", ["-rf", "/"]])
  })

  test("a command over 64 KiB is not parsed at all", () => {
    const a = analyze(`echo ${"x".repeat(65 * 1024)}`)
    expect(a.unresolvable).toBe(true)
    expect(a.parseError).toContain("64 KiB")
  })

  test("the same command always gives the same analysis", async () => {
    const cmd = "cd src && for f in *.ts; do wc -l \"$f\"; done | sort -n > /tmp/x"
    expect(await analyzeShell(cmd, ctx)).toEqual(analyze(cmd))
  })
})
