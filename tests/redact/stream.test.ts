import { describe, expect, test } from "bun:test"
import { createRedactor } from "../../core/redact/index.ts"
import { CORPUS, NEAR_MISSES, leaked } from "./corpus.ts"

/** Feeds `chunks` through a fresh stream and returns everything it emitted. */
function streamed(redactor: ReturnType<typeof createRedactor>, chunks: readonly string[]): string {
  const s = redactor.stream()
  let out = ""
  for (const c of chunks) out += s.push(c)
  return out + s.flush()
}

const redactor = createRedactor()

describe("streamed output", () => {
  test("a secret split at any position across two chunks is still redacted, and equals text()", () => {
    for (const c of CORPUS) {
      const line = c.line + "\n"
      const whole = redactor.text(line)
      for (let i = 0; i <= line.length; i++) {
        const out = streamed(redactor, [line.slice(0, i), line.slice(i)])
        if (out !== whole) throw new Error(`${c.kind} split at ${i}: stream differs from text()`)
        expect(leaked(out, c.secret)).toBe(false)
      }
    }
  }, 60_000)

  test("ordinary output split anywhere comes out unchanged", () => {
    const text = NEAR_MISSES.join("\n") + "\n"
    for (let i = 0; i <= text.length; i++) expect(streamed(redactor, [text.slice(0, i), text.slice(i)])).toBe(text)
  }, 60_000)

  test("many lines in small chunks: finished lines go out at once, the result equals text()", () => {
    const log = CORPUS.map((c, i) => `${NEAR_MISSES[i % NEAR_MISSES.length]}\n${c.line}\n`).join("")
    const whole = redactor.text(log)
    for (const size of [1, 7, 64, 1000]) {
      const s = redactor.stream()
      let out = ""
      let emittedEarly = false
      for (let i = 0; i < log.length; i += size) {
        const piece = s.push(log.slice(i, i + size))
        if (piece && i + size < log.length) emittedEarly = true
        out += piece
      }
      out += s.flush()
      expect(out).toBe(whole)
      expect(emittedEarly).toBe(true)
    }
  })

  test("a private key arriving line by line is held until its end line, then hidden whole", () => {
    const key = CORPUS.find((c) => c.kind === "pem-rsa")!.secret
    const s = redactor.stream()
    const lines = ["$ cat id_rsa\n", ...key.split("\n").map((l) => l + "\n"), "$ done\n"]
    const pieces = lines.map((l) => s.push(l))
    expect(pieces[0]).toBe("$ cat id_rsa\n")
    // nothing of the key goes out before its END line arrives
    expect(pieces.slice(1, -2).join("")).toBe("")
    expect(pieces.join("") + s.flush()).toBe("$ cat id_rsa\n[REDACTED:private-key]\n$ done\n")
  })

  test("a multi-line known secret is held while it may still be arriving", () => {
    const secret = "line-one-of-secret\nline-two-of-secret"
    const r = createRedactor({ secrets: [secret] })
    const s = r.stream()
    expect(s.push("before\nline-one-of-secret\n")).toBe("before\n")
    expect(s.push("line-two-of-secret and after\n")).toBe("[REDACTED:secret] and after\n")
    expect(s.flush()).toBe("")
  })

  test("a very long line without newlines is released in pieces and still equals text()", () => {
    const words = ["alpha", "beta", "token=abc123def456", "postgres://u:pw-123456@h/db", "/home/erin/x", "gamma"]
    let line = ""
    for (let i = 0; line.length < 300_000; i++) line += words[i % words.length] + " "
    const s = redactor.stream()
    let out = ""
    let early = 0
    for (let i = 0; i < line.length; i += 4096) {
      const piece = s.push(line.slice(i, i + 4096))
      if (piece) early++
      out += piece
    }
    out += s.flush()
    expect(out).toBe(redactor.text(line))
    expect(early).toBeGreaterThan(1)
    expect(out).not.toContain("pw-123456")
  })

  test("with redaction off, chunks pass straight through", () => {
    const s = createRedactor({ enabled: false }).stream()
    expect(s.push("password=hunter2\n")).toBe("password=hunter2\n")
    expect(s.push("partial")).toBe("partial")
    expect(s.flush()).toBe("")
  })
})
