// Brace expansion against bash itself: every form's words, as `printf '%s\n' FORM` prints them, equal
// braceWords' (sequences with increments, zero padding, one-word sequences, nesting, unclosed braces);
// more words than are followed give undefined, never a cut list. Skipped where bash is missing.
import { describe, expect, test } from "bun:test"
import { braceWords, MAX_BRACE_WORDS } from "../../core/shell/braces.ts"

const FORMS = [
  "{a,b}", "x{a,b}y", "{a,b}{c,d}", "{a,{b,c}}", "{c..c}", "x{c..c}y", "{a..e..2}", "{e..a..2}", "{a..c..-1}", "{1..10..3}",
  "{10..1..3}", "{1..10..-2}", "{01..3}", "{1..010}", "{-01..3}", "{1..-01}", "{-05..5..5}", "{001..10..3}", "{+1..3}", "{-3..-1}",
  "{0..2..+1}", "{1..3..0}", "{A..Z..5}", "{a..3}", "{1..3..a}", "{0x1..3}", "{aa..c}", "{}", "a{b}c", "{a..c}{", "{1..2}}", "{{1..2}",
  "{a..c..2,x}", "{a,}", "{c..c}{1..1}", "{1..1}", ".netr{a..c..2}",
]

const hasBash = Bun.spawnSync(["bash", "-c", "exit 0"]).exitCode === 0

function bashWords(form: string): string[] {
  const out = Bun.spawnSync(["bash", "-c", `printf '%s\\n' ${form}`]).stdout.toString()
  return out.split("\n").slice(0, -1)
}

describe.skipIf(!hasBash)("brace expansion as bash does it", () => {
  test.each(FORMS)("%s", (form) => {
    // bash drops the empty words an unquoted expansion makes ({a,}); the analysis keeps them as empty arguments
    expect(braceWords(form)!.filter((w) => w !== "")).toEqual(bashWords(form))
  })
})

describe("expansions past the limit", () => {
  test("more words than are followed are not known, whole", () => {
    expect(braceWords("/{a..z}{a..z}ot/.netrc")).toBeUndefined()
    expect(braceWords("{1..100}")).toBeUndefined()
    expect(braceWords(`{1..${MAX_BRACE_WORDS}}`)).toHaveLength(MAX_BRACE_WORDS)
  })

  test("a letter range across the cases (it passes \\ and `, which bash reads again as syntax) is not followed", () => {
    expect(braceWords("~/.net{Z..a}rc")).toBeUndefined()
    expect(braceWords("{b..Y}")).toBeUndefined()
  })
})
