// bash (outside posix mode) expands `~` after the `=` of an argument that looks like an assignment, and
// after each unquoted `:` in it; the analysis reads the same words (checked here against bash itself).
import { beforeAll, describe, expect, test } from "bun:test"
import { analyzeShellSync, loadParser, type AnalyzeContext } from "../../core/shell/index.ts"

const ctx: AnalyzeContext = { cwd: "/home/dev/project", workspace: "/home/dev/project", home: "/home/dev", env: { HOME: "/home/dev", PATH: "/usr/bin:/bin" } }

beforeAll(() => loadParser())

describe("tilde after NAME= in an argument", () => {
  const cases = ["x=~/a", "x=a:~/b", "x+=~/a", "X_1=~/a:~/b", 'x="a":~/b', "--x=~/a", "1x=~/a", 'x=\\~/a', 'x\\=~/a', '"x"=~/a', "x=a~/b", "x=~"]
  test.each(cases)("cat %s reads the file bash names", (word) => {
    const bash = Bun.spawnSync(["bash", "-c", `printf %s ${word}`], { env: { HOME: "/home/dev", PATH: process.env.PATH ?? "/usr/bin:/bin" } })
    const expected = bash.stdout.toString()
    expect(expected).not.toBe("")
    const a = analyzeShellSync(`cat -- ${word}`, ctx)
    expect(a.paths.map((p) => p.path)).toContain(`/home/dev/project/${expected}`)
  })

  test("a redirect target expands the same way", () => {
    const a = analyzeShellSync("cat < x=~/.netrc", ctx)
    expect(a.paths.map((p) => p.path)).toContain("/home/dev/project/x=/home/dev/.netrc")
  })
})
