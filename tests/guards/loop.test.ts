import { describe, expect, test } from "bun:test"
import { detectLoop, loopEntry, loopTrip, remember, type CallSummary, type LoopEntry, type LoopFinding } from "../../core/guards/loop.ts"
import { failed, guardPolicy, ok, viaCheckpoint } from "./fixtures.ts"

const policy = guardPolicy().loop_detection

/** Feeds calls one by one (the history going through a checkpoint each time); the finding after each. */
function run(calls: { call: CallSummary; at: number }[], loop = policy): (LoopFinding | undefined)[] {
  let history: LoopEntry[] = []
  return calls.map(({ call, at }) => {
    history = viaCheckpoint(remember(history, loopEntry(call, at), loop))
    return detectLoop(history, at, loop)
  })
}

const every = (calls: CallSummary[], stepMs = 1000) => calls.map((call, i) => ({ call, at: 1_000_000 + i * stepMs }))

describe("exact repeats", () => {
  test("the same call with the same answer twice is not a loop; the third time it is", () => {
    const findings = run(every([ok("read_file", { path: "a.ts" }, "x"), ok("read_file", { path: "a.ts" }, "x"), ok("read_file", { path: "a.ts" }, "x")]))
    expect(findings[0]).toBeUndefined()
    expect(findings[1]).toBeUndefined()
    expect(findings[2]?.loop_type).toBe("repeat")
    expect(findings[2]?.count).toBe(3)
    expect(findings[2]?.calls.map((c) => c.args)).toEqual(['{"path":"a.ts"}', '{"path":"a.ts"}', '{"path":"a.ts"}'])
  })

  test("key order and whitespace do not make a call different", () => {
    const findings = run(every([
      ok("shell", { command: "ls  -la", cwd: "src" }),
      ok("shell", { cwd: "src", command: "ls -la" }),
      ok("shell", '{ "cwd": "src",\n  "command": " ls -la " }'),
    ]))
    expect(findings[2]?.loop_type).toBe("repeat")
  })

  test("re-running tests after edits is progress when the answer changes", () => {
    const findings = run(every([
      ok("shell", { command: "bun test" }, "3 fail"),
      ok("edit_file", { path: "a.ts", old_string: "a", new_string: "b" }),
      ok("shell", { command: "bun test" }, "2 fail: b.test.ts"),
      ok("edit_file", { path: "b.ts", old_string: "a", new_string: "b" }),
      ok("shell", { command: "bun test" }, "all pass"),
    ]))
    expect(findings.every((f) => f === undefined)).toBe(true)
  })

  test("an answer that differs only in timings is the same answer", () => {
    const findings = run(every([
      ok("shell", { command: "bun test" }, "3 pass [12.10ms]"),
      ok("shell", { command: "bun test" }, "3 pass [9.87ms]"),
      ok("shell", { command: "bun test" }, "3 pass [15.02ms]"),
    ]))
    expect(findings[2]?.loop_type).toBe("repeat")
  })

  test("ls, cat x, ls, cat y is exploring, not a loop", () => {
    const findings = run(every([
      ok("shell", { command: "ls" }, "x y"),
      ok("shell", { command: "cat x" }, "X"),
      ok("shell", { command: "ls" }, "x y"),
      ok("shell", { command: "cat y" }, "Y"),
    ]))
    expect(findings.every((f) => f === undefined)).toBe(true)
  })

  test("a raised repeat_threshold lets more repeats through", () => {
    const calls = every(Array.from({ length: 4 }, () => ok("list_dir", {}, "a b")))
    expect(run(calls, { ...policy, repeat_threshold: 5 }).every((f) => f === undefined)).toBe(true)
    expect(run(calls, { ...policy, repeat_threshold: 4 })[3]?.loop_type).toBe("repeat")
  })
})

describe("similar errors", () => {
  test("the same tool failing with errors that differ only in numbers and paths is a loop", () => {
    const findings = run(every([
      failed("read_file", { path: "src/a.ts" }, "ENOENT: no such file or directory, open '/w/src/a.ts'", { type: "not_found" }),
      failed("read_file", { path: "src/b.ts" }, "ENOENT: no such file or directory, open '/w/src/b.ts'", { type: "not_found" }),
      failed("read_file", { path: "lib/c.ts" }, "ENOENT: no such file or directory, open '/w/lib/c.ts'", { type: "not_found" }),
    ]))
    expect(findings[1]).toBeUndefined()
    expect(findings[2]?.loop_type).toBe("error_repeat")
    expect(findings[2]?.errors).toHaveLength(3)
    expect(findings[2]?.errors?.[0]).toContain("/w/src/a.ts")
  })

  test("compiler errors at other lines of other files are the same error", () => {
    const findings = run(every([
      failed("shell", { command: "tsc -p ." }, "command exited with code 2", { code: "EXIT_CODE", text: "src/x.ts(12,5): error TS2322: Type 'string' is not assignable to type 'number'." }),
      failed("shell", { command: "tsc" }, "command exited with code 2", { code: "EXIT_CODE", text: "src/y.ts(40,1): error TS2322: Type 'boolean' is not assignable to type 'number'." }),
      failed("shell", { command: "bunx tsc" }, "command exited with code 2", { code: "EXIT_CODE", text: "lib/z.ts(3,9): error TS2322: Type 'string' is not assignable to type 'Date'." }),
    ]))
    expect(findings[2]?.loop_type).toBe("error_repeat")
  })

  test("different failures of the same tool are not a loop", () => {
    const findings = run(every([
      failed("shell", { command: "bun test" }, "command exited with code 1", { code: "EXIT_CODE", text: "expect(received).toBe(expected) Expected: 3 Received: 4 at tests/a.test.ts:10" }),
      failed("shell", { command: "ls nope" }, "command exited with code 2", { code: "EXIT_CODE", text: "ls: cannot access 'nope': No such file or directory" }),
      failed("shell", { command: "make" }, "command exited with code 2", { code: "EXIT_CODE", text: "make: *** No rule to make target 'all'. Stop." }),
    ]))
    expect(findings.every((f) => f === undefined)).toBe(true)
  })

  test("A(err) B(ok) A(err) B(ok) A(err): successful calls in between do not hide A's error loop", () => {
    const findings = run(every([
      failed("web_fetch", { url: "https://x/1" }, "connect ECONNREFUSED 10.0.0.1:443", { type: "network" }),
      ok("read_file", { path: "notes.md" }, "notes"),
      failed("web_fetch", { url: "https://x/2" }, "connect ECONNREFUSED 10.0.0.2:443", { type: "network" }),
      ok("list_dir", {}, "a b"),
      failed("web_fetch", { url: "https://x/3" }, "connect ECONNREFUSED 10.0.0.3:8443", { type: "network" }),
    ]))
    expect(findings.slice(0, 4).every((f) => f === undefined)).toBe(true)
    expect(findings[4]?.loop_type).toBe("error_repeat")
    expect(findings[4]?.calls.map((c) => c.tool)).toEqual(["web_fetch", "web_fetch", "web_fetch"])
  })

  test("a call that is not part of the pattern does not re-trip an old loop", () => {
    const same = failed("web_fetch", { url: "https://x" }, "ECONNREFUSED")
    const findings = run(every([same, same, same, ok("read_file", { path: "a" }, "a")]))
    expect(findings[2]?.loop_type).toBe("error_repeat")
    expect(findings[3]).toBeUndefined()
  })
})

describe("oscillation", () => {
  test("A,B,A,B,A,B is a ping-pong even when every answer differs", () => {
    const calls = every([0, 1, 2, 3, 4, 5].map((i) =>
      i % 2 === 0 ? ok("edit_file", { path: "a.ts", old_string: "x", new_string: "y" }, `edited ${"v".repeat(i)}`) : ok("edit_file", { path: "a.ts", old_string: "y", new_string: "x" }, `back ${"w".repeat(i)}`),
    ))
    const findings = run(calls)
    expect(findings.slice(0, 5).every((f) => f === undefined)).toBe(true)
    expect(findings[5]?.loop_type).toBe("oscillation")
    expect(findings[5]?.count).toBe(6)
  })

  test("oscillation: false turns the check off", () => {
    const calls = every([0, 1, 2, 3, 4, 5].map((i) => ok("shell", { command: i % 2 ? "git diff" : "bun test" }, `out ${"z".repeat(i)}`)))
    expect(run(calls, { ...policy, oscillation: false }).every((f) => f === undefined)).toBe(true)
    expect(run(calls)[5]?.loop_type).toBe("oscillation")
  })

  test("A,B,A,C,A,B is not a ping-pong", () => {
    const calls = every(["a", "b", "a", "c", "a", "b"].map((c, i) => ok("shell", { command: c }, `${"q".repeat(i)}`)))
    expect(run(calls).every((f) => f === undefined)).toBe(true)
  })
})

describe("window and time window", () => {
  test("repeats older than time_window are forgotten", () => {
    const call = ok("list_dir", {}, "a")
    const findings = run([
      { call, at: 0 },
      { call, at: 50_000 },
      { call, at: 95_000 }, // the first is 95s old: outside the 60s window
      { call, at: 100_000 },
    ])
    expect(findings[2]).toBeUndefined()
    expect(findings[3]?.loop_type).toBe("repeat")
  })

  test("repeats further back than `window` calls are forgotten", () => {
    const repeated = ok("list_dir", {}, "a")
    const others = Array.from({ length: 9 }, (_, i) => ok("read_file", { path: `f${i}` }, `${i}`))
    const findings = run(every([repeated, repeated, ...others, repeated]))
    expect(findings.at(-1)).toBeUndefined()
    const closer = run(every([repeated, repeated, ...others.slice(0, 7), repeated]))
    expect(closer.at(-1)?.loop_type).toBe("repeat")
  })

  test("the history never grows past what the detectors look at", () => {
    let history: LoopEntry[] = []
    for (let i = 0; i < 100; i++) history = remember(history, loopEntry(ok("read_file", { path: `f${i}` }), i), policy)
    expect(history).toHaveLength(10)
    expect(history[9]?.args).toBe('{"path":"f99"}')
  })
})

describe("the trip", () => {
  test("says which guard, the evidence and what to do", () => {
    const findings = run(every([ok("list_dir", {}, "a"), ok("list_dir", {}, "a"), ok("list_dir", {}, "a")]))
    const trip = loopTrip(findings[2]!, policy)
    expect(trip.guard).toBe("loop")
    expect(trip.action).toBe("pause")
    expect(trip.evidence.loop_type).toBe("repeat")
    expect(trip.evidence.calls).toHaveLength(3)
    expect(trip.reason).toContain("Loop detected (repeat): list_dir {} was called 3 times")
    expect(trip.reason).toContain("loop_detection.repeat_threshold")
    expect(trip.reason).toContain("ccode resume")
    expect(viaCheckpoint(trip)).toEqual(trip)
  })

  test("an error loop's message quotes the last error", () => {
    const call = failed("web_fetch", { url: "u" }, "connect ECONNREFUSED 127.0.0.1:9", { type: "network" })
    const findings = run(every([call, call, call]))
    const trip = loopTrip(findings[2]!, policy)
    expect(trip.reason).toContain('Last error: "TOOL_ERROR connect ECONNREFUSED 127.0.0.1:9"')
    expect(trip.reason).toContain("loop_detection.error_repeat_threshold")
  })
})
