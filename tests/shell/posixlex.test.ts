// The code of a POSIX shell script without its comments and here-document bodies: what is blanked, what
// is kept (an unquoted body's expansions, arithmetic shifts, quoted `#`), and that any text (fuzzed) keeps
// its length and newlines and is read to its end quickly.
import { describe, expect, test } from "bun:test"
import { codeOnly } from "../../core/shell/posixlex.ts"

const blanks = (text: string) => text.replace(/[^\n]/g, " ")

describe("codeOnly", () => {
  test("a comment that starts a word is blanked to the end of its line", () => {
    expect(codeOnly(": # it's\nalias a=b")).toBe(`: ${blanks("# it's")}\nalias a=b`)
    expect(codeOnly("true;# it's\nx")).toBe(`true;${blanks("# it's")}\nx`)
    expect(codeOnly("echo a#b '#c' \"#d\" \\#e ${x#y} $#")).toBe("echo a#b '#c' \"#d\" \\#e ${x#y} $#")
    // inside $(…) the comment runs to the newline; inside backquotes to the closing one
    expect(codeOnly("x=$(echo x # it's )\n)")).toBe(`x=$(echo x ${blanks("# it's )")}\n)`)
    expect(codeOnly("x=`echo #`; alias a=b")).toBe("x=`echo  `; alias a=b")
    // a line continuation is invisible: the `#` after it starts a word
    expect(codeOnly(": \\\n# it's\nalias a=b")).toBe(`: \\\n${blanks("# it's")}\nalias a=b`)
  })

  test("here-document bodies are blanked, the delimiter line too; the next line is code", () => {
    expect(codeOnly("cat <<EOF\nit's\nEOF\nalias a=b")).toBe(`cat <<EOF\n${blanks("it's")}\n${blanks("EOF")}\nalias a=b`)
    expect(codeOnly("cat <<-'E'\n\tit's\n\tE\nx")).toBe(`cat <<-'E'\n${blanks("\tit's")}\n${blanks("\tE")}\nx`)
    expect(codeOnly("cat <<A <<\\B\na'\nA\nb'\nB\nx")).toBe(`cat <<A <<\\B\n  \n \n  \n \nx`)
    expect(codeOnly("x=$(cat <<E\nit's\nE\n)\ny")).toBe(`x=$(cat <<E\n${blanks("it's")}\n \n)\ny`)
  })

  test("an unquoted body's expansions are kept; a quoted body's are not", () => {
    expect(codeOnly("cat <<E\nsay $(alias a=b) it's\nE")).toBe(`cat <<E\n    $(alias a=b)     \n `)
    expect(codeOnly("cat <<'E'\n$(alias a=b)\nE")).toBe(`cat <<'E'\n${blanks("$(alias a=b)")}\n `)
  })

  test("a here-document in $(…) or backquotes ends with the group; one before it has its body after the group's line", () => {
    // dash 0.5 runs the lines after `x=$(cat <<E)` and x=`cat <<E` as code
    expect(codeOnly("x=$(cat <<E)\nalias a=b\nE")).toBe("x=$(cat <<E)\nalias a=b\nE")
    expect(codeOnly("x=`cat <<E`\nalias a=b\nE")).toBe("x=`cat <<E`\nalias a=b\nE")
    expect(codeOnly("cat <<E; x=$(\nalias a=b\nE\n)\nbody\nE\ny")).toBe(`cat <<E; x=$(\nalias a=b\nE\n)\n${blanks("body")}\n \ny`)
  })

  test("what is not a here-document or a comment is kept", () => {
    for (const s of ["echo $((1<<2)) # x", "((x<<2))", "cat <<<\"it's\"", "echo \"<<E\"", "echo \\<<E"]) expect(codeOnly(s).startsWith(s.split(" #")[0]!)).toBe(true)
    // a body whose delimiter line never comes stays (the checks read more)
    expect(codeOnly("cat <<E\nit's\nalias a=b")).toBe("cat <<E\nit's\nalias a=b")
  })

  test("many here-documents and deep nesting stay quick and keep the text", () => {
    const started = performance.now()
    const many = Array.from({ length: 20000 }, (_, i) => `cat <<NOPE${i}`).join("\n")
    expect(codeOnly(many)).toBe(many)
    const deep = "x=$(".repeat(20000) + ")".repeat(20000)
    // past 100 groups the rest is kept as it is (read as code)
    expect(codeOnly(`${deep}\n# it's`)).toBe(`${deep}\n# it's`)
    expect(codeOnly(`x=$(a)\n# it's`)).toBe(`x=$(a)\n${blanks("# it's")}`)
    expect(codeOnly(`"$(`.repeat(20000)).length).toBe(60000)
    expect(performance.now() - started).toBeLessThan(5000)
  })

  test("fuzzed text keeps its length and newlines, and blanking twice changes nothing", () => {
    const alphabet = ["#", "<<", "<<-", "'", '"', "\\", "$(", "${", "`", ")", "}", "\n", "\t", " ", "E", "it's", "$((", "))", "a", ";"]
    let seed = 7
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648
    const started = performance.now()
    for (let n = 0; n < 3000; n++) {
      let s = ""
      for (let k = 0; k < 40; k++) s += alphabet[Math.floor(next() * alphabet.length)]
      const out = codeOnly(s)
      expect(out.length).toBe(s.length)
      expect(out.replace(/[^\n]/g, "")).toBe(s.replace(/[^\n]/g, ""))
      expect(codeOnly(out)).toBe(out)
    }
    expect(performance.now() - started).toBeLessThan(5000)
  })
})
