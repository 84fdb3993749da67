// Speed-ups must not change a single answer: each helper rewritten for speed is compared with the
// version it replaced (kept here) over fuzzed inputs, and the empty results parts share are shown to
// stay empty after the corpora are analysed. The whole pipeline is compared with an earlier revision by
// `bun scripts/shell-identity.ts REV` (every field of every analysis, corpora and mutations).
import { beforeAll, describe, expect, test } from "bun:test"
import { riskRank, RISKS, type Risk } from "../../core/base/risk.ts"
import { isInsideFold } from "../../core/shell/cwd.ts"
import { analyzeShellSync, loadParser } from "../../core/shell/index.ts"
import { throughLinks, type MadeLink, type Through } from "../../core/shell/links.ts"
import { newPart } from "../../core/shell/part.ts"
import { readPlain } from "../../core/shell/plain.ts"
import { credentialsBelow, followedWalks, recursiveReads } from "../../core/shell/secretreads.ts"
import { gitContentReads } from "../../core/shell/gitcontent.ts"
import { unpackReads } from "../../core/shell/unpacks.ts"
import { printedSecrets } from "../../core/shell/secretvars.ts"
import { literalWord } from "../../core/shell/word.ts"
import { unquotedText } from "../../core/shell/grammars.ts"
import { pathCandidates } from "../../core/shell/builds.ts"
import { compileOptions, resolveLong, type Compiled } from "../../core/shell/getopt.ts"
import { known, knownPrograms } from "../../core/shell/known.ts"
import { gitOptions } from "../../core/shell/known-git.ts"
import { CORPUS, CORPUS_CONTEXT } from "./corpus.ts"
import { ATTACK_CONTEXT, linkResolver, loadAttacks, loadControls } from "./attacks.ts"
import { random } from "./seeded.ts"

beforeAll(() => loadParser())

// throughLinks as it was: its seen-set made for every path, also for the many that lead through no link
function throughLinksBefore(path: string, links: readonly MadeLink[], self: number, realpath?: (p: string) => string): Through | undefined {
  let found: Through | undefined
  let frontier = [path]
  const seen = new Set<string>([path])
  for (let hop = 0; hop < 4 && frontier.length; hop++) {
    const next: string[] = []
    for (const p of frontier) {
      for (const l of links) {
        if (l.part === self || !isInsideFold(l.at, p) || (l.tree && p.length === l.at.length)) continue
        found ??= { paths: [] }
        if (l.to === null) {
          found.unknown ??= l
          continue
        }
        for (const t of l.to) {
          const rest = p.slice(l.at.length)
          const mapped = t === "/" ? rest || "/" : t + rest
          const real = realpath ? realpath(mapped) : mapped
          for (const m of real === mapped ? [mapped] : [mapped, real]) {
            if (seen.has(m) || seen.size > 16) continue
            seen.add(m)
            found.paths.push(m)
            next.push(m)
          }
        }
      }
    }
    frontier = next
  }
  return found
}

// unquotedText as it was: one concatenation per character
function unquotedTextBefore(script: string): string {
  let out = ""
  for (let i = 0; i < script.length; i++) {
    const c = script[i]!
    if (c === "\\") {
      out += "__"
      i++
    } else if (c === "'" || c === '"') {
      let end = i + 1
      while (end < script.length && script[end] !== c) end += c === '"' && script[end] === "\\" ? 2 : 1
      out += c + "_".repeat(Math.min(end, script.length) - i - 1) + (end < script.length ? c : "")
      i = end
    } else out += c
  }
  return out
}

// pathCandidates as it was: every argument split and tested, also plain names (`test`, `build`)
function pathCandidatesBefore(s: string): string[] {
  const URL = /^[a-z][a-z0-9+.-]*:\/\//i
  const EXPANDED = /^\$\{?[A-Za-z_]/
  const out: string[] = []
  const todo = [s]
  while (todo.length) {
    const c = todo.pop()!
    if (out.includes(c)) continue
    out.push(c)
    const pieces = c.split(/[\s,]+/).filter(Boolean)
    if (pieces.length > 1) todo.push(...pieces)
    if (c.startsWith("-") && !c.startsWith("--") && c.length > 2) todo.push(c.slice(2))
    if (c.startsWith("@")) todo.push(c.slice(1))
    const eq = c.indexOf("=")
    if (eq >= 0) todo.push(c.slice(eq + 1))
    const typed = /^[a-z][a-z0-9-]*:([^/].*|\/[^/].*)?$/i.exec(c)
    if (typed?.[1] && !URL.test(c)) todo.push(typed[1])
  }
  return out.filter((c) => URL.test(c) || EXPANDED.test(c) || c.startsWith("/") || c.startsWith("~") || c === ".." || c.startsWith("../") || c.includes("/.."))
}

// resolveLong as it was: every long name tried in turn
function resolveLongBefore(given: string, spec: Compiled): string | undefined {
  if (spec.long.has(given)) return given
  if (!given) return undefined
  let found: string | undefined
  for (const n of spec.longNames) {
    if (!n.startsWith(given)) continue
    if (found !== undefined) return undefined
    found = n
  }
  return found
}

describe("rewritten helpers give the answers of the versions they replaced", () => {
  test("resolveLong: every prefix of every long name of every option list, and names that are none", () => {
    const specs: Compiled[] = [compileOptions({}), compileOptions({ long: "a ab abc abd b= c? dd== e-f e-g" })]
    for (const p of knownPrograms()) {
      const k = known(p)
      if (k && !k.data) specs.push(k.options)
    }
    for (const sub of ["log", "diff", "show", "status", "branch", "blame", "grep", "rev-parse", "config", "remote", "ls-files", "reflog", "stash"]) {
      const spec = gitOptions(sub)
      if (spec) specs.push(spec)
    }
    expect(specs.length).toBeGreaterThan(50)
    let compared = 0
    for (const spec of specs) {
      const givens = new Set(["", "-", "zzz", "no-", "é", "A"])
      for (const n of spec.longNames) for (let i = 0; i <= n.length; i++) for (const g of [n.slice(0, i), `${n.slice(0, i)}x`, `no-${n.slice(0, i)}`]) givens.add(g)
      for (const g of givens) {
        expect(resolveLong(g, spec)).toBe(resolveLongBefore(g, spec))
        compared++
      }
    }
    expect(compared).toBeGreaterThan(10000)
  })

  test("pathCandidates: plain names, options with values, lists, URLs, typed values, variables", () => {
    const pick = random(3)
    const pieces = ["a", "Z9", "_", "-", "--", "=", ",", " ", "/", "~", "..", ".", "@", ":", "xml:", "http://h", "$HOME", "${X}", "-o", "tmp", "é"]
    const args = ["", "test", "build", "..", "-", "x=..", ...Array.from({ length: 20000 }, () => Array.from({ length: 1 + pick(6) }, () => pieces[pick(pieces.length)]!).join(""))]
    for (const a of args) expect(pathCandidates(a)).toEqual(pathCandidatesBefore(a))
  })

  test("unquotedText: quotes closed and not, escapes inside and outside them, a backslash last", () => {
    const pick = random(5)
    const pieces = ["a", "b c", " ", "\\", "'", '"', "$x", "`", "\n", "é", ";", "\\\"", "''", '""', "\\'"]
    const texts = ["", "\\", "'", '"', "a\\", "'a", '"a\\"', '"a\\', ...Array.from({ length: 20000 }, () => Array.from({ length: 1 + pick(12) }, () => pieces[pick(pieces.length)]!).join(""))]
    for (const t of texts) expect(unquotedText(t)).toBe(unquotedTextBefore(t))
    // so is every corpus command
    for (const t of [...CORPUS.map((e) => e.cmd), ...loadAttacks().map((a) => a.cmd), ...loadControls()]) expect(unquotedText(t)).toBe(unquotedTextBefore(t))
  })

  test("throughLinks: chains, loops, trees, unknown targets, links of the path's own part, realpath", () => {
    const pick = random(11)
    const places = ["/", "/w", "/w/a", "/w/a/b", "/w/A", "/h", "/h/.ssh", "/h/.SSH/x", "/etc", "/w/l", "/w/l/m", "/tmp/t", "/w/a/b/c/d"]
    const resolvers = [undefined, linkResolver({ "/w/a": "/h" }), linkResolver({ "/etc": "/w/l", "/h/.ssh": "/" })]
    let compared = 0
    let through = 0
    for (let i = 0; i < 4000; i++) {
      const links: MadeLink[] = []
      for (let k = pick(5); k > 0; k--) {
        const to = pick(5) === 0 ? null : Array.from({ length: 1 + pick(2) }, () => places[pick(places.length)]!)
        links.push({ at: places[pick(places.length)]!, to, part: pick(3) - 1, how: "ln -s", ...(pick(4) === 0 ? { tree: true } : {}) })
      }
      const path = places[pick(places.length)]! + (pick(2) ? "/f" : "")
      const self = pick(3) - 1
      const realpath = resolvers[pick(resolvers.length)]
      const before = throughLinksBefore(path, links, self, realpath)
      expect(throughLinks(path, links, self, realpath)).toEqual(before)
      compared++
      if (before?.paths.length) through++
    }
    expect(compared).toBe(4000)
    // the fuzz reaches paths that do lead through links, not only ones that lead through none
    expect(through).toBeGreaterThan(500)
  })

  test("riskRank: every level's place in RISKS, -1 for anything else", () => {
    for (const r of [...RISKS, "", "Safe", "CRITICAL", "unknown", "medium "]) expect(riskRank(r as Risk)).toBe((RISKS as readonly string[]).indexOf(r))
  })
})

describe("what is kept between analyses is the same answer", () => {
  test("credentialsBelow: a folder's locations are the same after 600 other folders and homes, and a caller's change to them is its own", () => {
    const folders = ["/", "/home", "/home/dev", "/home/dev/project", "/home/dev/.config", "/root", "/Users/x", "/HOME/DEV", "/h/a"]
    const homes = ["/home/dev", "/root", "/Users/x", "/h"]
    const first = new Map<string, string[]>()
    for (const h of homes) for (const f of folders) first.set(`${h} ${f}`, credentialsBelow(f, h))
    expect(first.get("/home/dev /home/dev")).toContain("/home/dev/.ssh")
    expect(first.get("/home/dev /home/dev/project")).toEqual([])
    // a home and a folder that spell another pair's key when joined are not that pair
    expect(credentialsBelow("/", "/ho")).not.toEqual(credentialsBelow("o/", "/h"))
    for (let i = 0; i < 600; i++) credentialsBelow(`/home/u${i}`, `/home/u${i % 7}`).push("/added/by/the/caller")
    for (const h of homes) for (const f of folders) {
      const again = credentialsBelow(f, h)
      expect(again).toEqual(first.get(`${h} ${f}`)!)
      again.push("/added/by/the/caller")
      expect(credentialsBelow(f, h)).toEqual(first.get(`${h} ${f}`)!)
    }
  })
})

describe("the empty results parts share stay empty", () => {
  test("after every corpus command is analysed, a part that touches nothing still gets []", () => {
    const sources = [...CORPUS.map((e) => e.cmd), ...loadAttacks().map((a) => a.cmd), ...loadControls()]
    let analysed = 0
    for (const cmd of sources) {
      analyzeShellSync(cmd, CORPUS_CONTEXT)
      analyzeShellSync(cmd, { ...ATTACK_CONTEXT, realpath: linkResolver({ "/home/dev/project/docs": "/home/dev/.aws" }) })
      analysed++
    }
    expect(analysed).toBe(sources.length)
    const ls = newPart("ls", [literalWord("ls")], [], [], [], ["/w"], [], undefined)
    ls.program = "ls"
    expect(recursiveReads(ls, "/h")).toEqual([])
    expect(followedWalks(ls, "/h")).toEqual([])
    expect(gitContentReads(ls, "/h")).toEqual([])
    expect(unpackReads(ls, "/h")).toEqual([])
    expect(printedSecrets(ls)).toEqual([])
    const read = readPlain("ls -la", [], new Map(), ["/w"], [])!
    expect(read.bare).toEqual([])
    expect(read.bareCwd).toEqual([])
  })

  test("a command analysed twice gives the same analysis (nothing carried over from the first)", () => {
    for (const cmd of ["cat a.txt", "grep -rn TODO src", "ln -s ~/.ssh x && cat x/id_rsa", "git log -p", "tar xf a.tar && cat a", "printenv GITHUB_TOKEN"]) {
      const first = JSON.stringify(analyzeShellSync(cmd, CORPUS_CONTEXT))
      analyzeShellSync("rm -rf / && cp -a ~/.aws x", CORPUS_CONTEXT)
      expect(JSON.stringify(analyzeShellSync(cmd, CORPUS_CONTEXT))).toBe(first)
    }
  })
})
