// What one call changes in the shared sandbox is not there for the next: a process whose main thread
// exited while its other threads run (it looks like a zombie), /dev, /dev/shm and IPC (review 9C 1, 2).
import { describe, expect, test } from "bun:test"
import { readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { sharedSetup, usable } from "./shared-setup.ts"

const { setup } = sharedSetup()

const PYTHON = Bun.which("python3")

// a thread appends to the log every 50 ms; the main thread ends with the raw exit syscall (not
// exit_group): /proc/PID/stat then says Z while the thread runs on
const THREADED_ZOMBIE = [
  "import ctypes, sys, threading, time",
  "def beat():",
  "    while True:",
  "        open(sys.argv[1], 'a').write('alive\\n')",
  "        time.sleep(0.05)",
  "threading.Thread(target=beat, daemon=True).start()",
  "time.sleep(0.1)",
  "ctypes.CDLL(None).syscall(60, 0)",
].join("\n")

describe.skipIf(!usable || !PYTHON)("a leftover that looks dead is still ended before the next call", () => {
  test("a setsid'd process whose main thread exited (state Z, a thread alive) is gone at the next call", async () => {
    const { ws, run, warm } = setup()
    writeFileSync(join(ws, "zl.py"), THREADED_ZOMBIE)
    expect(await warm()).toBe(true)
    const plant = await run("setsid -f python3 zl.py beat.log; for i in $(seq 100); do ps -eo stat,args | grep -q '^Z.*python3' && break; sleep 0.05; done; ps -eo pid,stat,args")
    expect(plant.text).toMatch(/Z.*python3/)
    const later = await run("ps -eLo pid,lwp,stat,args")
    expect(later.text).not.toContain("python3")
    const lines = readFileSync(join(ws, "beat.log"), "utf8").length
    await Bun.sleep(300)
    expect(readFileSync(join(ws, "beat.log"), "utf8").length).toBe(lines)
  }, 60_000)

  test("a stopped process and a process that renamed itself are ended too", async () => {
    const { run, warm } = setup()
    expect(await warm()).toBe(true)
    await run("(setsid sh -c 'kill -STOP $$; sleep 3301' &); (setsid bash -c 'exec -a \"[kworker/0:1]\" sleep 3302' &); sleep 0.2")
    const later = await run("ps -eo pid,stat,args")
    expect(later.text).not.toMatch(/3301|3302|kworker/)
  }, 60_000)
})

describe.skipIf(!usable)("/dev, /dev/shm and IPC are the same for every call", () => {
  test("the standard links of /dev cannot be replaced for a later call", async () => {
    const { ws, run, warm } = setup()
    writeFileSync(join(ws, "tamper.sh"), `rm -f /dev/fd /dev/stdout; ln -s ${ws}/fdd /dev/fd; ln -s ${ws}/out /dev/stdout; mkdir -p fdd; echo ATTACKER > fdd/63\n`)
    expect(await warm()).toBe(true)
    await run("sh ./tamper.sh 2>/dev/null; true")
    const victim = await run("cat <(echo real); readlink /dev/fd /dev/stdout; test -e out || echo no-out")
    expect(victim.text).toBe("real\n/proc/self/fd\n/proc/self/fd/1\nno-out\n")
  }, 60_000)

  test("a file or folder a call leaves in /dev/shm or /dev is gone at the next call; /dev/shm stays writable", async () => {
    const { run, warm } = setup()
    expect(await warm()).toBe(true)
    const put = await run("echo s > /dev/shm/left; mkdir -p /dev/shm/d/e; echo t > /dev/shm/d/e/f; { echo u > /dev/left; } 2>/dev/null; cat /dev/shm/left")
    expect(put.text).toBe("s\n")
    const later = await run("ls -A /dev/shm; ls /dev/left 2>&1 >/dev/null | wc -l")
    expect(later.text).toBe("1\n")
  }, 60_000)

  test("System V shared memory, semaphores and message queues one call makes are not there for the next", async () => {
    const { run, warm } = setup()
    expect(await warm()).toBe(true)
    const made = await run("ipcmk -M 4096 >/dev/null && ipcmk -S 1 >/dev/null && ipcmk -Q >/dev/null; ipcs | grep -c '^0x'")
    expect(made.text).toBe("3\n")
    expect((await run("ipcs | grep -c '^0x'")).text).toBe("0\n")
  }, 60_000)
})
