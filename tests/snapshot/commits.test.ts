// Which of the repository's HEAD moves are the run's: those its reflog dates within one of the run's
// calls (to the second); a branch switch never is.
import { expect, test } from "bun:test"
import { movesDuringCalls, parseReflog } from "../../core/snapshot/commits.ts"

const h = (c: string) => c.repeat(40)
const REFLOG = [
  `${h("0")} ${h("a")} A U Thor <a@example.com> 1000 +0000\tcommit (initial): start`,
  `${h("a")} ${h("b")} A U Thor <a@example.com> 1010 +0200\tcommit: run commit 1`,
  `${h("b")} ${h("c")} Some One <s@example.com> 1020 -0500\tcommit: user commit`,
  `${h("c")} ${h("d")} Some One <s@example.com> 1021 +0000\tcheckout: moving from main to topic`,
  `${h("d")} ${h("e")} A U Thor <a@example.com> 1030 +0000\tcommit: run commit 2`,
  "not a reflog line",
  "",
].join("\n")

test("a reflog is read line by line: from, to, the second and the message", () => {
  const moves = parseReflog(REFLOG)
  expect(moves.map((m) => [m.from[0], m.to[0], m.at, m.message])).toEqual([
    ["0", "a", 1000, "commit (initial): start"],
    ["a", "b", 1010, "commit: run commit 1"],
    ["b", "c", 1020, "commit: user commit"],
    ["c", "d", 1021, "checkout: moving from main to topic"],
    ["d", "e", 1030, "commit: run commit 2"],
  ])
})

test("only moves within a call's span are the run's; one between its calls, or a checkout, is not", () => {
  const moves = parseReflog(REFLOG)
  const calls = [
    { seq: 1, startedAt: 1_009_400, finishedAt: 1_010_100 },
    { seq: 2, startedAt: 1_021_000, finishedAt: 1_021_900 },
    // never finished (the run crashed in it): the run's end closes its span
    { seq: 3, startedAt: 1_029_000, finishedAt: null },
  ]
  expect(movesDuringCalls(moves, calls, 1_031_000).map((m) => m.message)).toEqual(["commit: run commit 1", "commit: run commit 2"])
  expect(movesDuringCalls(moves, calls, 1_029_500).map((m) => m.message)).toEqual(["commit: run commit 1"])
  expect(movesDuringCalls(moves, [], 2_000_000)).toEqual([])
})
