// The options of transparent wrappers that do more than wrap: fakeroot (a shell script) evaluates its
// option values with `eval` (-l's library path, -s/-i/-b through `eval $FAKED $FAKEDOPTS`, --faked is the
// daemon it runs), strace -E/--env sets variables for the command it runs (BASH_ENV, LD_PRELOAD),
// strace/ltrace -p attach to another process, and dbus-run-session runs the daemon --dbus-daemon names.
// What they do is added to the part the wrapper is removed from. Pure.
import type { Word } from "./word.ts"
import { literalWord } from "./word.ts"
import { lazyOptions, readOptions } from "./getopt.ts"
import { isLoaderVar } from "./scope.ts"
import { childEnv, type Expander, type Part } from "./part.ts"

const FAKEROOT = lazyOptions({ short: "l:s:i:b:uhv", long: "lib= faked= unknown-is-real help version" })
const STRACE = lazyOptions({
  short: "a:b:e:E:I:o:O:p:P:s:S:u:U:X:cCdDfFhiknqrtTvVwxyYzZ",
  long: "env= output= attach= trace= signal= status= abbrev= verbose= raw= read= write= quiet= decode-fds= user= summary-sort-by= columns= string-limit= successful-only failed-only follow-forks output-separately summary-only summary summary-wall-clock instruction-pointer stack-trace syscall-limit= trace-path= seccomp-bpf kill-on-exit inject= fault= help version",
})
const LTRACE = lazyOptions({
  short: "a:A:b:cCD:e:fF:hil:Ln:o:p:rs:StTu:Vw:x:",
  long: "align= config= demangle help indent= library= output= version no-signals where=",
})

/** Add what a wrapper's own options do to the part it wraps; `options` are the words between the two. */
export function wrapperOptions(name: string, part: Part, options: Word[], ex: Expander): void {
  if (name === "fakeroot") fakeroot(part, options, ex)
  else if (name === "strace" || name === "ltrace") tracer(name, part, options)
  else if (name === "dbus-run-session") dbusSession(part, options, ex)
}

/**
 * strace/ltrace -p PID (--attach): trace a process already running, not the command given, and print
 * the data of its calls (the buffers it reads and writes: a credential another process reads shows up).
 * strace's -e inject=/fault= (--inject, --fault) change the results the traced process gets.
 */
function tracer(name: string, part: Part, options: Word[]): void {
  for (const o of readOptions(options, name === "strace" ? STRACE() : LTRACE()).valued) {
    const v = o.value?.value
    if (o.name === "p" || o.name === "attach") {
      part.findings.push({ name: "read-process", level: "high", reason: `${name} ${o.written} ${o.value?.text ?? ""} attaches to a running process and prints the data of its calls (what it reads and writes)` })
    } else if (o.name === "inject" || o.name === "fault" || (o.name === "e" && (v === undefined || /^(?:inject|fault)=/.test(v)))) {
      part.findings.push({ name: "program-option", level: "medium", reason: `strace ${o.written} ${o.value?.text ?? ""} changes the results of the traced process's system calls` })
    }
  }
  if (name === "strace") straceEnv(part, options)
}

/** `busybox --install [-s] [DIR]` makes a link for every applet in DIR (default /bin, /sbin, /usr/bin, /usr/sbin). */
export function busyboxInstall(part: Part): boolean {
  const at = part.words.findIndex((w, i) => i > 0 && w.value === "--install")
  if (at < 0) return false
  const dir = part.words.slice(at + 1).find((w) => w.value !== "-s")
  part.findings.push({ name: "write-files", level: "high", reason: `busybox --install writes a link for each of its applets into ${dir?.text ?? "/bin, /sbin, /usr/bin and /usr/sbin"}` })
  if (dir) part.writes = [...(part.writes ?? []), dir]
  return true
}

const DBUS_SESSION = lazyOptions({ long: "config-file= dbus-daemon= help version" })

// dbus-run-session --dbus-daemon=BIN runs BIN; --config-file's bus configuration names the services
// (programs) the bus starts on request
function dbusSession(part: Part, options: Word[], ex: Expander): void {
  for (const o of readOptions(options, DBUS_SESSION()).valued) {
    const v = o.value
    if (o.name === "dbus-daemon") {
      if (v?.value === undefined) part.unresolved = `dbus-run-session ${o.written}: the daemon it runs is not static`
      else ex.out.push(...ex.nested(literalWord(v.value), { context: [...part.context, "eval"], cwd: part.cwd, loader: part.loader, exported: childEnv(part) }))
    } else if (o.name === "config-file") part.findings.push({ name: "program-option", level: "high", reason: `dbus-run-session ${o.written} ${v?.text ?? ""}: the bus configuration names programs the bus starts` })
  }
}

function fakeroot(part: Part, options: Word[], ex: Expander): void {
  for (const o of readOptions(options, FAKEROOT()).valued) {
    const v = o.value
    if (!v) continue
    if (v.value === undefined) {
      part.unresolved = `fakeroot ${o.written} ${v.text}: a value fakeroot passes to eval is not static`
      continue
    }
    // the value is shell text to fakeroot's eval: its substitutions and separators run
    const script = o.name === "faked" ? v.value : `: ${v.value}`
    ex.out.push(...ex.nested(literalWord(script), { context: [...part.context, "eval"], cwd: part.cwd, loader: part.loader, exported: childEnv(part) }))
    if (o.name === "l" || o.name === "lib") part.findings.push({ name: "loader-env", level: "high", reason: `fakeroot ${o.written} ${v.text} preloads that library into the command (LD_PRELOAD)` })
    else if (o.name === "s") part.writes = [...(part.writes ?? []), v]
    else if (o.name === "faked") part.findings.push({ name: "unknown", level: "medium", reason: `fakeroot ${o.written} ${v.text} runs that program as its daemon` })
  }
}

function straceEnv(part: Part, options: Word[]): void {
  for (const o of readOptions(options, STRACE()).valued) {
    if (o.name !== "E" && o.name !== "env") continue
    const v = o.value?.value
    if (v === undefined) {
      part.unresolved = `strace ${o.written} ${o.value?.text ?? ""}: the variable it sets is not static`
      continue
    }
    const eq = v.indexOf("=")
    const varName = eq < 0 ? v : v.slice(0, eq)
    if (eq < 0) continue // `-E NAME` removes NAME
    part.assignments = [...part.assignments, { name: varName, value: literalWord(v.slice(eq + 1)) }]
    if (isLoaderVar(varName)) part.loader = [...part.loader, varName]
  }
}
