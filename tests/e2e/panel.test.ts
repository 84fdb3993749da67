// The continuous-mode panel in a real terminal (tmux) driving the compiled binary: keys p/c/b/h/q do
// what they say, an approval shows a diff and is answered inside the panel, the screen is checked as
// text, the fallbacks (TERM=dumb, narrow, NO_COLOR) hold, and the terminal is given back every time.
import { afterEach, describe, expect, test } from "bun:test"
import { cpSync, readFileSync, rmSync } from "node:fs"
import { join } from "node:path"
import { ccode, events, sandbox, type Sandbox } from "./harness.ts"
import { terminal, type Terminal } from "./tmux.ts"

const STEPS = `version: 1
name: panel-steps
steps:
  - id: first
    run: "sleep 2; echo first-done"
  - id: second
    needs: [first]
    run: "echo second-done"
  - id: third
    needs: [second]
    run: "echo third-done"
  - id: fourth
    needs: [third]
    run: "echo fourth-done"
`

const open: { sb?: Sandbox; term?: Terminal }[] = []
afterEach(() => {
  for (const { sb, term } of open.splice(0)) {
    term?.kill()
    if (sb) rmSync(sb.root, { recursive: true, force: true })
  }
})

async function start(files: Record<string, string>, args: string, opts: Parameters<typeof terminal>[2] = {}) {
  const sb = sandbox()
  const entry: { sb: Sandbox; term?: Terminal } = { sb }
  open.push(entry)
  for (const [path, content] of Object.entries(files)) sb.file(path, content)
  entry.term = await terminal(sb, args, opts)
  return { sb, term: entry.term }
}

/** The terminal is itself again: off the alternate screen, line mode (icanon) back on. */
async function restored(term: Terminal): Promise<void> {
  await term.waitFor(/^icanon$/m)
  expect(term.pane("#{alternate_on}")).toBe("0")
}

const planRow = (screen: string, id: string) => screen.split("\n").find((l) => new RegExp(`^.{2}. ${id}\\b`).test(l)) ?? ""

describe("the panel at a terminal", () => {
  test("h shows help, p pauses after the running step, b stops before the selected step, c continues, q stops resumable (130)", async () => {
    const { sb, term } = await start({ "t.yaml": STEPS }, "run t.yaml")
    await term.waitFor((s) => planRow(s, "first").includes("▶"))
    term.press("h")
    await term.waitFor("stop with a checkpoint")
    term.press("x") // any key closes the help
    await term.waitFor((s) => !s.includes("stop with a checkpoint") && s.includes("first"))

    term.press("p")
    const pausing = await term.waitFor(/pausing after the call that is running|paused before second/)
    expect(pausing).toMatch(/pausing|paused/)
    let screen = await term.waitFor("paused before second")
    expect(planRow(screen, "first")).toContain("✓")
    await Bun.sleep(1500) // paused means nothing new starts, however long it waits
    screen = term.screen()
    expect(screen).toContain("paused before second")
    expect(planRow(screen, "second")).not.toContain("✓")

    // the cursor is on the next step to run (second); one down is third: a breakpoint there
    term.press("Down", "b")
    screen = await term.waitFor((s) => /^›●/.test(planRow(s, "third")))
    expect(planRow(screen, "second")).toMatch(/^ {2}/)
    term.press("c")
    screen = await term.waitFor("paused at the breakpoint before third")
    expect(planRow(screen, "second")).toContain("✓")
    expect(planRow(screen, "third")).not.toContain("✓")

    term.press("q")
    screen = await term.waitFor(/EXIT=\d+/)
    expect(screen).toContain("EXIT=130")
    expect(screen).toContain("interrupted")
    await restored(term)

    // resumable: the rest runs on resume, nothing that finished runs again
    const runId = /(r[0-9a-z]{10,})/.exec(screen)?.[1] ?? ""
    const resumed = await ccode(sb, ["resume", runId, "--json"])
    expect(resumed.code).toBe(0)
    const ran = events(resumed.stdout).filter((e) => e.type === "step.started").map((e) => e.step)
    expect(ran).toEqual(["third", "fourth"])
  }, 90_000)

  test("an edit_file approval shows the diff inside the panel and the answer there applies it", async () => {
    const task = `version: 1
name: panel-edit
steps:
  - id: bump
    tool: edit_file
    with: { path: config.txt, old_string: "port=8080", new_string: "port=9090" }
`
    const { sb, term } = await start({ "t.yaml": task, "config.txt": "host=local\nport=8080\nmode=dev\n" }, "run t.yaml")
    const screen = await term.waitFor("allow once")
    // the screen as a person sees it (run id and times masked)
    const shot = screen.split("\n").map((l) => l.trimEnd().replace(/r[0-9a-z]{10,}/g, "RUN").replace(/\b\d+(\.\d+)?m?s\b/g, "T")).filter(Boolean)
    expect(shot.slice(0, 3)).toEqual(["ccode panel-edit RUN running · T", "steps 0/1 · wall T/30m0s", "─".repeat(99)])
    expect(shot.slice(3, 15)).toEqual([
      "? edit_file · step bump · risk medium",
      expect.stringMatching(/^  why: /),
      "  rules: none",
      "  --- a/config.txt",
      "  +++ b/config.txt",
      "  @@ -1,3 +1,3 @@",
      "   host=local",
      "  -port=8080",
      "  +port=9090",
      "   mode=dev",
      "› 1. allow once",
      expect.stringMatching(/^  2\. allow for this run: /),
    ])
    expect(shot.at(-1)).toBe("p pause · c continue · b breakpoint · ↑↓ select · h help · q stop")
    expect(screen).not.toContain('"old_string"') // a diff, not raw JSON arguments
    expect(readFileSync(join(sb.work, "config.txt"), "utf8")).toContain("port=8080") // nothing before the answer
    term.press("Enter")
    const end = await term.waitFor(/EXIT=\d+/)
    expect(end).toContain("EXIT=0")
    await restored(term)
    expect(readFileSync(join(sb.work, "config.txt"), "utf8")).toBe("host=local\nport=9090\nmode=dev\n")
    const audit = await ccode(sb, ["audit", "--json"])
    expect(audit.stdout).toContain("prompt:once")
  }, 90_000)

  const SECRET = "q8Hn2Lr5VtX0aZ3cB7dE9fG1hJ4kM6nP8sR0uW2y"
  test("deny inside the panel (key 3): the file stays as it was and the step is denied", async () => {
    const task = `version: 1\nname: panel-deny\nsteps:\n  - id: write\n    tool: write_file\n    with: { path: new.txt, content: "fresh\\naws_secret_access_key = ${SECRET}\\n" }\n`
    const { sb, term } = await start({ "t.yaml": task }, "run t.yaml")
    const screen = await term.waitFor("allow once")
    expect(screen).toContain("--- /dev/null")
    expect(screen).toContain("+fresh")
    // a secret in the content is masked in the diff, like everywhere else
    expect(screen).toContain("+aws_secret_access_key = [REDACTED")
    expect(screen).not.toContain(SECRET)
    term.press("3")
    const end = await term.waitFor(/EXIT=\d+/)
    expect(end).toContain("EXIT=5")
    await restored(term)
    expect(() => readFileSync(join(sb.work, "new.txt"))).toThrow()
  }, 90_000)

  test.skipIf(!Bun.which("bwrap"))("a sandbox preview-mode step: its diff is shown in the panel and Enter applies it", async () => {
    const task = "version: 1\nname: preview\nsteps:\n  - id: edit\n    run: sed -i 's/world/there/' notes.txt\n    preview: true\n"
    const { sb, term } = await start({ "t.yaml": task, "notes.txt": "hello world\n" }, "run t.yaml --yes")
    const screen = await term.waitFor("allow once")
    expect(screen).toContain("-hello world")
    expect(screen).toContain("+hello there")
    expect(screen).toContain("1 changed")
    expect(readFileSync(join(sb.work, "notes.txt"), "utf8")).toBe("hello world\n")
    term.press("Enter")
    expect(await term.waitFor(/EXIT=\d+/)).toContain("EXIT=0")
    await restored(term)
    expect(readFileSync(join(sb.work, "notes.txt"), "utf8")).toBe("hello there\n")
  }, 90_000)

  test("q at an approval in the panel: exit 130, the request stays open, approve + resume runs the call once", async () => {
    const task = "version: 1\nsteps:\n  - id: risky\n    run: rm -rf build && echo risky >> log.txt\n  - id: after\n    needs: [risky]\n    run: echo after\n"
    const { sb, term } = await start({ "t.yaml": task }, "run t.yaml")
    await term.waitFor("allow once")
    term.press("q")
    const end = await term.waitFor(/EXIT=\d+/)
    expect(end).toContain("EXIT=130")
    await restored(term)
    const ls = JSON.parse((await ccode(sb, ["runs", "ls", "--json"])).stdout) as { id: string; status: string }[]
    expect(ls.map((r) => r.status)).toEqual(["interrupted"])
    const show = JSON.parse((await ccode(sb, ["runs", "show", ls[0]!.id, "--json"])).stdout) as { requests: { kind: string; status: string }[] }
    expect(show.requests.map((r) => [r.kind, r.status])).toEqual([["approval", "pending"]])
    expect(() => readFileSync(join(sb.work, "log.txt"))).toThrow()
    expect((await ccode(sb, ["approve", ls[0]!.id, "--all"])).code).toBe(0)
    expect((await ccode(sb, ["resume", ls[0]!.id])).code).toBe(0)
    expect(readFileSync(join(sb.work, "log.txt"), "utf8")).toBe("risky\n")
  }, 90_000)

  test("an agent run: p at its approval answers it and pauses before the agent's next call; c goes on", async () => {
    const sb = sandbox()
    open.push({ sb })
    cpSync(join(import.meta.dir, "..", "..", "examples", "agent-replay"), join(sb.work, "agent"), { recursive: true })
    const term = await terminal(sb, "run agent/task.yaml")
    open.push({ term })
    const asked = await term.waitFor("allow once")
    expect(asked).toMatch(/^turns \d+\/\d+ · wall .* · tokens 0 · cost \$0\.00/m)
    expect(asked).toContain('+echo "Hello, world!"')
    term.press("p", "Enter")
    const paused = await term.waitFor("paused between calls")
    expect(paused).toContain("✓ t4.1 edit_file")
    term.press("c")
    const end = await term.waitFor(/EXIT=\d+/)
    expect(end).toContain("EXIT=0")
    expect(end).toContain("completed")
    await restored(term)
  }, 90_000)

  test("resume at a terminal: the step left running is asked about inside the panel, then the run completes", async () => {
    const { sb, term } = await start({ "t.yaml": STEPS }, "run t.yaml")
    await term.waitFor((s) => planRow(s, "first").includes("▶"))
    term.press("q")
    const stopped = await term.waitFor(/EXIT=\d+/)
    expect(stopped).toContain("EXIT=130")
    const runId = /(r[0-9a-z]{10,})/.exec(stopped)?.[1] ?? ""
    const again = await terminal(sb, `resume ${runId}`)
    open.push({ term: again })
    const asked = await again.waitFor("was running when ccode stopped")
    expect(asked).toContain("1. run it again")
    again.press("Enter")
    const end = await again.waitFor(/EXIT=\d+/)
    expect(end).toContain("EXIT=0")
    expect(end).toContain("✓ fourth")
    expect(end).toContain("completed")
    await restored(again)
  }, 90_000)

  test("SIGTERM while the panel shows: the terminal is given back and the run is interrupted (130)", async () => {
    const { term } = await start({ "t.yaml": STEPS }, "run t.yaml")
    await term.waitFor((s) => planRow(s, "first").includes("▶"))
    expect(term.pane("#{alternate_on}")).toBe("1")
    const child = Bun.spawnSync(["pgrep", "-P", String(term.pid())]).stdout.toString().trim().split("\n")[0]
    process.kill(Number(child), "SIGTERM")
    const end = await term.waitFor(/EXIT=\d+/)
    expect(end).toContain("EXIT=130")
    await restored(term)
  }, 90_000)

  test("colour follows NO_COLOR", async () => {
    const coloured = await start({ "t.yaml": STEPS }, "run t.yaml")
    await coloured.term.waitFor((s) => planRow(s, "first").includes("▶"))
    expect(coloured.term.screen(true)).toMatch(/\x1b\[[0-9;]*3[0-9]m/)
    coloured.term.press("q")
    await coloured.term.waitFor(/EXIT=/)
    const plain = await start({ "t.yaml": STEPS }, "run t.yaml", { env: { NO_COLOR: "1" } })
    await plain.term.waitFor((s) => planRow(s, "first").includes("▶"))
    expect(plain.term.screen(true)).not.toMatch(/\x1b\[[0-9;]*3[0-9]m/)
    plain.term.press("q")
    await plain.term.waitFor(/EXIT=/)
  }, 90_000)
})

describe("output of a step never drives the terminal", () => {
  // a window title (OSC 2) would show as the pane's title; clipboard writes (OSC 52) travel the same way
  const task = `version: 1\nname: esc\nsteps:\n  - id: sneaky\n    run: "printf 'x\\\\033]2;PWNED\\\\007y\\\\033[2Jz\\\\n'; sleep 1"\n`
  for (const [name, env] of [["in the panel", {}], ["in the line output", { CCODE_PANEL: "0" }]] as const) {
    test(name, async () => {
      const { term } = await start({ "t.yaml": task }, "run t.yaml", { env })
      const end = await term.waitFor(/EXIT=\d+/)
      expect(end).toContain("EXIT=0")
      expect(term.pane("#{pane_title}")).not.toContain("PWNED")
      if (name === "in the line output") expect(end).toContain("│ xyz")
    }, 60_000)
  }
})

describe("where the panel steps aside for line output", () => {
  const lineOutput = async (opts: Parameters<typeof terminal>[2], args = "run t.yaml") => {
    const { sb, term } = await start({ "t.yaml": STEPS.replace("sleep 2; ", "") }, args, opts)
    const screen = await term.waitFor(/EXIT=\d+/)
    expect(screen).toContain("EXIT=0")
    expect(screen).not.toContain("p pause · c continue")
    expect(term.pane("#{alternate_on}")).toBe("0")
    return { screen, sb }
  }
  test("TERM=dumb", async () => {
    expect((await lineOutput({ env: { TERM: "dumb" } })).screen).toContain("✓ fourth")
  }, 60_000)
  test("a terminal narrower than 40 columns", async () => {
    expect((await lineOutput({ cols: 39 })).screen).toContain("✓ fourth")
  }, 60_000)
  test("--json: events on stdout, no panel", async () => {
    const { sb } = await lineOutput({}, "run t.yaml --json > events.jsonl")
    const lines = events(readFileSync(join(sb.work, "events.jsonl"), "utf8"))
    expect(lines.at(-1)).toMatchObject({ type: "run.finished", status: "completed" })
  }, 60_000)
})
