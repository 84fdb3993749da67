// $'…' strings decoded as bash decodes them: bash 5.2's `\x{HH..}`, escapes with no digits after them,
// a NUL ending the word, code points past Unicode (not known, never a crash). Checked against real bash
// (skipped where bash is missing) over fixed forms and texts from a fixed-seed generator.
import { describe, expect, test } from "bun:test"
import { decodeAnsiC } from "../../core/shell/word.ts"

const hasBash = Bun.spawnSync(["bash", "-c", "exit 0"]).exitCode === 0

/** The bytes bash gives for $'BODY' (the escapes only: no quote in BODY), one byte a char. */
function bashBytes(body: string): string {
  const r = Bun.spawnSync(["bash", "-c", `printf '%s' $'${body}'`], { env: { LC_ALL: "C.UTF-8", PATH: process.env.PATH } })
  return Buffer.from(r.stdout).toString("latin1")
}

// the decoded text as the bytes bash writes: \x and octal escapes are bytes, \u and \U code points in UTF-8
function asBytes(text: string, unicode: boolean): string {
  return unicode ? Buffer.from(text, "utf8").toString("latin1") : text
}

const FIXED = [
  "\\x{63}", "\\x{063}", "\\x{0063}", "\\x{}", "\\x{}z", "\\x{6g}", "\\x{6", "\\x{zz}", "\\x{7e}a", "\\x{263}", "\\x{41}B", "\\x{ff}",
  "a\\x{2e}netrc", "\\x", "\\xg", "\\x4", "\\x41", "\\x411", "\\u", "\\ug", "\\U", "\\u{41}", "\\101", "\\0", "\\cA", "\\e", "\\q", "\\c?", "\\c\\a", "\\c\\\\a", "\\c1", "\\c{", "\\cz",
]

describe("bash's $'…' escapes", () => {
  test("bash 5.2's \\x{HH} decodes (it threw before: the hook failed with an internal error)", () => {
    expect(decodeAnsiC("\\x{63}at")).toBe("cat")
    expect(decodeAnsiC("/root/\\x{2e}netrc")).toBe("/root/.netrc")
    expect(decodeAnsiC("\\x{}rest")).toBe("")
    expect(decodeAnsiC("\\xg")).toBe("\\xg")
    expect(decodeAnsiC("\\u{41}")).toBe("\\u{41}")
  })

  test("a code point past Unicode is not known (bash writes bytes no string holds)", () => {
    expect(decodeAnsiC("a\\U110000")).toBeUndefined()
    expect(decodeAnsiC("\\UFFFFFFFF")).toBeUndefined()
    expect(decodeAnsiC("\\U0001F600")).toBe("😀")
  })

  test.skipIf(!hasBash)("the fixed forms decode to bash's bytes", () => {
    for (const body of FIXED) expect({ body, got: asBytes(decodeAnsiC(body)!, false) }).toEqual({ body, got: bashBytes(body) })
    for (const body of ["\\u2e", "\\u002e", "\\U0001F600", "\\u263A"]) expect({ body, got: asBytes(decodeAnsiC(body)!, true) }).toEqual({ body, got: bashBytes(body) })
  })

  test.skipIf(!hasBash)("generated \\x and octal escapes decode to bash's bytes", () => {
    const pieces = ["\\x{", "}", "\\x", "\\", "a", "0", "7", "f", "F", "3", "e", "g", "{", "\\c", "\\1", "\\0", "z"]
    let seed = 7
    const next = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n
    const bodies: string[] = []
    for (let i = 0; i < 150; i++) {
      let body = ""
      for (let j = 1 + next(8); j > 0; j--) body += pieces[next(pieces.length)]
      // a trailing lone backslash would escape the closing quote
      if (!/(^|[^\\])(\\\\)*\\$/.test(body)) bodies.push(body)
    }
    expect(bodies.length).toBeGreaterThan(100)
    for (const body of bodies) expect({ body, got: asBytes(decodeAnsiC(body)!, false) }).toEqual({ body, got: bashBytes(body) })
  })
})
