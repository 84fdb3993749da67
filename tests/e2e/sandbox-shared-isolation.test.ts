// The shared sandbox through the compiled binary (review 9C 1, 1b, 2): a process whose main thread
// exited while a thread runs on (it looks like a zombie) does not outlive its step to plant `.claude`
// after ccode's check, a step cannot replace /dev/fd for a later step, and (review 9C 3) as a user other
// than root a key one step adds to the user keyring is not found by a later step.
import { afterEach, describe, expect, test } from "bun:test"
import { chmodSync, chownSync, existsSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs"
import { join } from "node:path"
import { binary, ccode, sandbox, type Sandbox } from "./harness.ts"
import { boxes, WARM } from "./boxes.ts"

const USABLE = Bun.which("bwrap") !== null && existsSync("/usr/bin/nsenter") && existsSync("/usr/bin/setpriv") && existsSync("/usr/bin/unshare")
const PYTHON = Bun.which("python3") !== null
const box = boxes()

// double fork + setsid; a thread beats into beat.log and, 1.2 s on (after its step was reported done),
// makes .claude/settings.json; the main thread ends with the raw exit syscall (state Z, thread alive)
const SURVIVOR = [
  "import ctypes, os, sys, threading, time",
  "if os.fork(): sys.exit(0)",
  "os.setsid()",
  "if os.fork(): os._exit(0)",
  "def beat():",
  "    start = time.time()",
  "    while True:",
  "        open('beat.log', 'a').write('alive\\n')",
  "        if time.time() - start > 1.2 and not os.path.exists('.claude'):",
  "            os.makedirs('.claude'); open('.claude/settings.json', 'w').write('{}')",
  "        time.sleep(0.1)",
  "threading.Thread(target=beat).start()",
  "time.sleep(0.1)",
  "ctypes.CDLL(None).syscall(60, 0)",
].join("\n") + "\n"

describe.skipIf(!USABLE)("what a step leaves in the shared sandbox (compiled binary)", () => {
  test.skipIf(!PYTHON)("a process that looks like a zombie is ended with its step: nothing planted later, nothing beating", async () => {
    const sb = box()
    sb.file("zl.py", SURVIVOR)
    sb.file("task.yaml", ["version: 1", "steps:", ...WARM, "  - id: plant", "    run: python3 zl.py; sleep 0.5", "  - id: victim", "    run: sleep 1.5; ps -eo stat,args > ps.txt", "  - id: after", "    run: 'true'"].join("\n") + "\n")
    const result = await ccode(sb, ["run", "task.yaml", "--yes", "--sandbox", "required"])
    expect(result.code).toBe(0)
    expect(readFileSync(join(sb.work, "ps.txt"), "utf8")).not.toContain("python3")
    expect(readdirSync(sb.work).filter((name) => name.startsWith(".claude"))).toEqual([])
    const beats = readFileSync(join(sb.work, "beat.log"), "utf8")
    await Bun.sleep(400)
    expect(readFileSync(join(sb.work, "beat.log"), "utf8")).toBe(beats)
  }, 60_000)

  test("a step that replaces /dev/fd and /dev/stdout changes nothing for a later step", async () => {
    const sb = box()
    sb.file("tamper.sh", `rm -f /dev/fd /dev/stdout 2>/dev/null; ln -s ${sb.work}/fdd /dev/fd 2>/dev/null; mkdir -p fdd; echo ATTACKER > fdd/63; echo u > /dev/shm/left; true\n`)
    sb.file("task.yaml", ["version: 1", "steps:", ...WARM, "  - id: tamper", "    run: sh ./tamper.sh", "  - id: victim", "    run: cat <(echo real) > out.txt; readlink /dev/fd /dev/stdout >> out.txt; ls -A /dev/shm >> out.txt"].join("\n") + "\n")
    const result = await ccode(sb, ["run", "task.yaml", "--yes", "--sandbox", "required"])
    expect(result.code).toBe(0)
    expect(readFileSync(join(sb.work, "out.txt"), "utf8")).toBe("real\n/proc/self/fd\n/proc/self/fd/1\n")
  }, 60_000)

  // ccode as uid 65534 (setpriv from root): the workspace, ccode's home and the binary reachable by it
  test.skipIf(process.getuid?.() !== 0 || !existsSync("/usr/bin/python3"))("as a user other than root, a key one step adds to @u is not there for a later step", async () => {
    const sb = box()
    sb.file("k.py", [
      "import ctypes, sys",
      "libc = ctypes.CDLL(None, use_errno=True)",
      "if sys.argv[1] == 'put':",
      "    print('add', libc.syscall(248, b'user', b'k9t', b'FAKESECRET-keyring', 18, -4) > 0)",
      "else:",
      "    kid = libc.syscall(250, 10, -4, b'user', b'k9t', 0)",
      "    buf = ctypes.create_string_buffer(64)",
      "    n = libc.syscall(250, 11, kid, buf, 64)",
      "    print('found', buf.raw[:max(n, 0)].decode())",
    ].join("\n") + "\n")
    sb.file("task.yaml", ["version: 1", "steps:", ...WARM, "  - id: put", "    run: /usr/bin/python3 k.py put > put.txt", "  - id: get", "    run: /usr/bin/python3 k.py get > get.txt"].join("\n") + "\n")
    chownTree(sb.root)
    // the folders above it (the test run's temp dir) searchable by others
    for (let dir = join(sb.root, ".."); dir !== "/"; dir = join(dir, "..")) chmodSync(dir, (statSync(dir).mode & 0o7777) | 0o001)
    const proc = Bun.spawn(["/usr/bin/setpriv", "--reuid", "65534", "--regid", "65534", "--clear-groups", await binary(), "run", "task.yaml", "--yes", "--sandbox", "required"], { cwd: sb.work, env: sb.env, stdout: "pipe", stderr: "pipe" })
    const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited])
    expect({ code, out: code === 0 ? "" : out }).toEqual({ code: 0, out: "" })
    expect(readFileSync(join(sb.work, "put.txt"), "utf8")).toBe("add True\n")
    expect(readFileSync(join(sb.work, "get.txt"), "utf8")).toBe("found \n")
  }, 60_000)
})

function chownTree(dir: string): void {
  chownSync(dir, 65534, 65534)
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) chownTree(join(dir, entry.name))
    else chownSync(join(dir, entry.name), 65534, 65534)
  }
}
