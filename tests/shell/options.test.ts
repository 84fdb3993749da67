// Options read the way getopt_long and git's parse-options read them, and the allowlists behind
// "safe": every read-only program of the table has one.
import { describe, expect, test } from "bun:test"
import { compileOptions, readOptions } from "../../core/shell/getopt.ts"
import { known, knownPrograms } from "../../core/shell/known.ts"
import { TABLE } from "../../core/shell/table.ts"
import { literalWord } from "../../core/shell/word.ts"
import { globCandidates } from "../../core/shell/globs.ts"

const SORT = compileOptions({ short: "bcmnruo:k:t:", long: "output= compress-program= check? reverse unique", writes: "o output", runs: "compress-program" })
const read = (...args: string[]) => readOptions(args.map((a) => literalWord(a)), SORT)

describe("reading options like getopt_long", () => {
  test("a unique prefix is the option; an ambiguous or unknown one is reported as written", () => {
    expect(read("--outp", "f").valued.map((o) => [o.name, o.value?.value])).toEqual([["output", "f"]])
    expect(read("--comp=sh").valued.map((o) => [o.name, o.effect, o.value?.value])).toEqual([["compress-program", "run", "sh"]])
    expect(read("--c").unknown).toBe("--c") // check or compress-program: the program refuses it
    expect(read("--frob=1").unknown).toBe("--frob")
  })

  test("attached values, bundles that end in a value-taking flag, and -- end the options", () => {
    expect(read("-ofile").valued.map((o) => o.value?.value)).toEqual(["file"])
    expect(read("-uro", "out", "in").valued.map((o) => [o.name, o.value?.value])).toEqual([["o", "out"]])
    expect(read("-uro", "out", "in").operands.map((w) => w.value)).toEqual(["in"])
    expect(read("--", "-o", "x").valued).toEqual([])
    expect(read("--", "-o", "x").operands.map((w) => w.value)).toEqual(["-o", "x"])
    expect(read("-uZ").unknown).toBe("-Z (in -uZ)")
  })

  test("a flag given a value, and a word that is not static where options are read, are not proven read-only", () => {
    expect(read("--reverse=1").unknown).toBe("--reverse=1")
    const dynamic = readOptions([{ ...literalWord("$X"), value: undefined }], SORT)
    expect(dynamic.unknown).toContain("could be an option")
  })

  test("git's --no- forms turn an option off: known, and without its effect", () => {
    const git = compileOptions({ long: "ext-diff color?", negatable: true, runs: "ext-diff" })
    const r = readOptions([literalWord("--no-ext-diff"), literalWord("--no-color")], git)
    expect(r.unknown).toBeUndefined()
    expect(r.valued).toEqual([])
  })
})

describe("allowlists", () => {
  test("every program the table calls read-only has an option list", () => {
    const readOnly = TABLE.find((e) => e.name === "read-only")!.programs
    expect(readOnly.filter((p) => !known(p))).toEqual([])
    expect(knownPrograms().length).toBeGreaterThan(100)
  })
})

describe("globs against sensitive paths", () => {
  test("a glob that could be ~/.ssh, an rc file or .git yields those paths; one that cannot yields none", () => {
    expect(globCandidates("/home/dev/.ss*/id_ed25519")).toEqual(["/home/dev/.ssh/id_ed25519"])
    expect(globCandidates("/home/dev/.bash?c")).toEqual(["/home/dev/.bashrc"])
    expect(globCandidates("/w/.g[i]t/config")).toEqual(["/w/.git/config"])
    expect(globCandidates("/w/src/*.ts")).toEqual([])
    expect(globCandidates("/w/src/a.ts")).toEqual([])
    expect(globCandidates("/home/dev/*", false)).toEqual([])
    expect(globCandidates("/home/dev/*").length).toBeGreaterThan(10)
  })
})
