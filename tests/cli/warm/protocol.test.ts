// The warm hook's wire format: only a whole, well-formed line is a request or an answer; anything else
// (truncated, two lines, wrong types, a crash's exit code, a block without its reason) is none, and the
// client then decides in-process.
import { describe, expect, test } from "bun:test"
import { decodeAnswer, decodeRequest, encodeAnswer, encodeRequest } from "../../../cli/warm/protocol.ts"
import { spareKey } from "../../../cli/warm/workers.ts"

const request = { argv: ["claude", "--on-ask", "deny"], env: { HOME: "/home/u", A: "x\ny" }, cwd: "/work", umask: 0o022, stdin: '{"tool_name":"Bash"}\n' }

describe("requests", () => {
  test("a request survives the trip whole", () => {
    expect(decodeRequest(encodeRequest(request))).toEqual({ v: 1, ...request })
  })

  test("anything but one whole line of the right shape is no request", () => {
    const line = encodeRequest(request)
    const bad = [
      line.slice(0, -1), line.slice(0, 30), line + line, "null\n", "[]\n",
      encodeRequest({ ...request, cwd: "work" }), encodeRequest({ ...request, cwd: "/a\0b" }), encodeRequest({ ...request, umask: 0o1000 }),
      encodeRequest({ ...request, argv: [1] as never }), encodeRequest({ ...request, env: { A: 1 } as never }), encodeRequest({ ...request, env: [] as never }),
      encodeRequest({ ...request, stdin: undefined as never }), line.replace('"v":1', '"v":2'),
    ]
    for (const text of bad) expect({ text, req: decodeRequest(text) }).toEqual({ text, req: undefined })
  })
})

describe("answers", () => {
  const out = new TextEncoder().encode('{"hookSpecificOutput":{"permissionDecision":"deny"}}\n')
  test("exit 0 with the answer, exit 0 silent, exit 2 with its reason: byte for byte", () => {
    expect(decodeAnswer(encodeAnswer(0, out, new Uint8Array()))).toEqual({ code: 0, stdout: Buffer.from(out), stderr: Buffer.alloc(0) })
    expect(decodeAnswer(encodeAnswer(0, new Uint8Array(), new Uint8Array()))).toEqual({ code: 0, stdout: Buffer.alloc(0), stderr: Buffer.alloc(0) })
    const reason = Buffer.from([0xff, 0x00, 0x41, 0x0a]) // not UTF-8: still the same bytes
    expect(decodeAnswer(encodeAnswer(2, new Uint8Array(), reason))).toEqual({ code: 2, stdout: Buffer.alloc(0), stderr: reason })
  })

  test("a crash's code, a block without a reason, a cut or doubled line, bad base64: no answer", () => {
    const line = encodeAnswer(0, out, new Uint8Array())
    const bad = [
      encodeAnswer(1, out, new Uint8Array()), encodeAnswer(3, new Uint8Array(), new Uint8Array()), encodeAnswer(137, new Uint8Array(), new Uint8Array()),
      encodeAnswer(2, new Uint8Array(), new Uint8Array()), line.slice(0, -1), line.slice(0, 25), line + line, "\n", "",
      line.replace(/"stdout":"[^"]*"/, '"stdout":"%%%"'), line.replace('"code":0', '"code":"0"'), line.replace('"v":1', '"v":0'),
    ]
    for (const text of bad) expect({ text, answer: decodeAnswer(text) }).toEqual({ text, answer: undefined })
  })
})

test("a spare worker serves only a caller with the same folder and every variable the same, in any order", () => {
  expect(spareKey({ A: "1", B: "2" }, "/w")).toBe(spareKey({ B: "2", A: "1" }, "/w"))
  expect(spareKey({ A: "1" }, "/w")).not.toBe(spareKey({ A: "1" }, "/v"))
  expect(spareKey({ A: "1" }, "/w")).not.toBe(spareKey({ A: "1", B: "" }, "/w"))
  expect(spareKey({ A: "1" }, "/w")).not.toBe(spareKey({ A: "2" }, "/w"))
})
