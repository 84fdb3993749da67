// The quote-removed word reader of sh/dash scripts: names and globs are found however they are quoted,
// quoted text elsewhere is no name, and any text (fuzzed) is read to its end quickly.
import { describe, expect, test } from "bun:test"
import { wordFacts } from "../../core/shell/posixwords.ts"

describe("wordFacts", () => {
  test("a name counts after quote removal, a quoted argument does not", () => {
    expect(wordFacts("\\alias a=b").alias).toBe(true)
    expect(wordFacts("a'li'as a=b").alias).toBe(true)
    expect(wordFacts("x=$(a\\\nlias)").alias).toBe(true)
    expect(wordFacts("grep 'alias' f").alias).toBeUndefined()
    expect(wordFacts("echo alias").alias).toBeUndefined()
  })

  test("NAME=value before a special builtin, the value holding blanks", () => {
    expect(wordFacts("f=$(echo a b) g=${x:- } \\:").specialAssign).toBe(true)
    expect(wordFacts("f=`echo a b` ex''port").specialAssign).toBe(true)
    expect(wordFacts("f=1 make :").specialAssign).toBeUndefined()
    expect(wordFacts("f=1; export f").specialAssign).toBeUndefined()
  })

  test("globs with a leading dot or expansion, the dot quoted or not", () => {
    for (const g of ["..*", '".".*', ".*.", '"".*', "\\.?", '"."*', "d/''.[a]", "$x*", '"$x"?']) expect([g, wordFacts(`ls ${g}`)]).not.toEqual([g, {}])
    for (const g of ["'.*'", '".?"', ".[!.]*", "./*.ts", "$x/*.ts", "a.*"]) expect([g, wordFacts(`ls ${g}`)]).toEqual([g, {}])
  })

  test("echo piped on and eval/trap text", () => {
    expect(wordFacts('ec""ho "a\\\\0164" \\\n| sh').echoPiped).toBe(true)
    expect(wordFacts('echo "a\\\\0164" > f').echoPiped).toBeUndefined()
    expect(wordFacts('ev""al "\\\\alias a=b"')).toEqual({ evalText: true, alias: true })
    expect(wordFacts("trap -- 'x=1 :' EXIT")).toEqual({ evalText: true, specialAssign: true })
  })

  test("any text is read to its end in bounded time", () => {
    const alphabet = ["'", '"', "\\", "$", "(", ")", "{", "}", "`", " ", "\n", ";", "|", "&", "<", ">", "#", "=", ".", "*", "a", "eval ", "alias ", ":"]
    let seed = 7
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648
    const start = performance.now()
    for (let n = 0; n < 3000; n++) {
      let s = ""
      for (let k = 0; k < 60; k++) s += alphabet[Math.floor(rand() * alphabet.length)]
      expect(typeof wordFacts(s)).toBe("object")
    }
    expect(wordFacts("eval \"$(eval \"$(".repeat(200)).evalText).toBe(true)
    expect(performance.now() - start).toBeLessThan(20_000)
  })
})
