import { describe, expect, test } from "bun:test"
import { fitLine } from "../../cli/ui/status-line.ts"

const paint = (t: string) => `\x1b[2m${t}\x1b[22m`
const visible = (s: string) => [...s.replace(/\x1b\[[0-9;]*m/g, "")].length

describe("the status line", () => {
  test("never wider than the terminal, colours kept whole, the title cut first", () => {
    const line = fitLine([{ text: "▶ " }, { text: "build " }, { text: "shell · 2.0s ", paint }, { text: "x".repeat(200), paint }], 30)
    expect(visible(line)).toBe(29)
    expect(line.endsWith("…\x1b[22m")).toBe(true)
    expect(line.startsWith("▶ build \x1b[2mshell · 2.0s \x1b[22m")).toBe(true)
  })

  test("a short line is left as it is; newlines in a command do not break it", () => {
    expect(fitLine([{ text: "▶ a " }, { text: "echo 1\necho 2" }], 80)).toBe("▶ a echo 1 echo 2")
    expect(fitLine([{ text: "abcdef" }], 1)).toBe("")
  })
})
