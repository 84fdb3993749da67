// The options of transparent wrappers that do more than wrap: fakeroot (a shell script) evaluates its
// option values with `eval` (-l's library path, -s/-i/-b through `eval $FAKED $FAKEDOPTS`, --faked is the
// daemon it runs), strace -E/--env sets variables for the command it runs (BASH_ENV, LD_PRELOAD),
// strace/ltrace -p attach to another process, and dbus-run-session runs the daemon --dbus-daemon names.
// What they do is added to the part the wrapper is removed from. Pure.
import type { Word } from "./word.ts"
import { literalWord } from "./word.ts"
import { lazyOptions, readOptions, type Valued } from "./getopt.ts"
import { isLoaderVar } from "./scope.ts"
import type { Expander, Part } from "./part.ts"
import { environment } from "./part.ts"

const FAKEROOT = lazyOptions({ short: "l:s:i:b:uhv", long: "lib= faked= unknown-is-real help version" })
const STRACE = lazyOptions({
  short: "a:b:e:E:I:o:O:p:P:s:S:u:U:X:cCdDfFhiknqrtTvVwxyYzZ",
  long: "env= output= attach= trace= signal= status= abbrev= verbose= raw= read= write= quiet= decode-fds= user= summary-sort-by= columns= string-limit= successful-only failed-only follow-forks output-separately summary-only summary summary-wall-clock instruction-pointer stack-trace syscall-limit= trace-path= seccomp-bpf kill-on-exit inject= fault= absolute-timestamps? timestamps? relative-timestamps? syscall-times? const-print-style= daemonize? debug decode-pids= detach-on= interruptible= kvm= no-abbrev output-append-mode secontext? summary-columns= summary-syscall-overhead= syscall-number strings-in-hex? stack-traces tips? pidns-translation trace-fds= help version",
})
const LTRACE = lazyOptions({ short: "a:A:D:e:F:l:n:o:p:s:u:w:x:bcCfhiLrStTV", long: "align= config= demangle indent= library= output= help version" })

/** Add what a wrapper's own options do to the part it wraps; `options` are the words between the two. */
export function wrapperOptions(name: string, part: Part, options: Word[], ex: Expander): void {
  if (name === "fakeroot") fakeroot(part, options, ex)
  else if (name === "strace") strace(part, options, ex)
  else if (name === "ltrace") ltrace(part, options)
  else if (name === "dbus-run-session") dbusSession(part, options, ex)
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
      else ex.out.push(...ex.nested(literalWord(v.value), { context: [...part.context, "eval"], cwd: part.cwd, loader: part.loader, exported: environment(part) }))
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
    ex.out.push(...ex.nested(literalWord(script), { context: [...part.context, "eval"], cwd: part.cwd, loader: part.loader, exported: environment(part) }))
    if (o.name === "l" || o.name === "lib") part.findings.push({ name: "loader-env", level: "high", reason: `fakeroot ${o.written} ${v.text} preloads that library into the command (LD_PRELOAD)` })
    else if (o.name === "s") part.writes = [...(part.writes ?? []), v]
    else if (o.name === "faked") part.findings.push({ name: "unknown", level: "medium", reason: `fakeroot ${o.written} ${v.text} runs that program as its daemon` })
  }
}

// strace's -e qualifiers that only choose what is shown and how; `-e read=`/`write=` dump whole buffers,
// `inject=`/`fault=` change what the system calls return: judged below, any other is not known
const QUALIFIERS = /^(trace|t|abbrev|a|verbose|v|raw|x|signals?|s|status|quiet|silent|silence|q|decode-fds|decode-pids|kvm|trace-fds|e)$/

function strace(part: Part, options: Word[], ex: Expander): void {
  const r = readOptions(options, STRACE())
  if (r.unknown) part.findings.push({ name: "unknown", level: "medium", reason: `strace ${r.unknown}: an option ccode does not know` })
  for (const o of r.valued) {
    const v = o.value?.value
    if (o.name === "p" || o.name === "attach") attaches(part, "strace", o.written, o.value?.text)
    else if (o.name === "inject" || o.name === "fault") injects(part, o.written, o.value?.text)
    else if (o.name === "read" || o.name === "write") dumps(part, o.written, o.value?.text)
    else if (o.name === "e") {
      const q = v === undefined ? undefined : v.includes("=") ? v.slice(0, v.indexOf("=")) : "trace"
      if (q === "inject" || q === "fault" || q === "delay" || q?.startsWith("poke")) injects(part, o.written, o.value?.text)
      else if (q === "read" || q === "write" || q === "r" || q === "w") dumps(part, o.written, o.value?.text)
      else if (q === undefined || !QUALIFIERS.test(q)) part.findings.push({ name: "unknown", level: "medium", reason: `strace ${o.written} ${o.value?.text ?? ""}: a qualifier ccode does not know` })
    } else if (o.name === "E" || o.name === "env") straceEnv(part, o)
    else if (o.name === "o" || o.name === "output") straceOutput(part, o, ex)
  }
}

// -p/--attach PID: ptrace-attaches a process that is already running and prints the data of its system
// calls (what it reads from files and sockets, credentials included): a read of that process's memory
function attaches(part: Part, program: string, written: string, pid: string | undefined): void {
  part.findings.push({ name: "read-process", level: "high", reason: `${program} ${written} ${pid ?? ""} attaches to a running process and shows the data it reads and writes (a read of that process's memory)` })
}

function injects(part: Part, written: string, value: string | undefined): void {
  part.findings.push({ name: "unknown", level: "high", reason: `strace ${written} ${value ?? ""} changes what the traced program's system calls return (fault injection)` })
}

function dumps(part: Part, written: string, value: string | undefined): void {
  part.findings.push({ name: "read-process", level: "high", reason: `strace ${written} ${value ?? ""} dumps in full every buffer read or written on those descriptors: data the program handles for itself (credentials) reaches the output` })
}

function ltrace(part: Part, options: Word[]): void {
  const r = readOptions(options, LTRACE())
  if (r.unknown) part.findings.push({ name: "unknown", level: "medium", reason: `ltrace ${r.unknown}: an option ccode does not know` })
  for (const o of r.valued) if (o.name === "p") attaches(part, "ltrace", o.written, o.value?.text)
}

/** strace -o/--output: a value starting with `|` or `!` is not a file, strace popen()s the rest as a shell command. */
export function pipedOutput(value: string | undefined): boolean {
  return value === undefined || value.startsWith("|") || value.startsWith("!")
}

function straceOutput(part: Part, o: Valued, ex: Expander): void {
  const v = o.value?.value
  if (!pipedOutput(v)) return
  if (v === undefined) {
    part.findings.push({ name: "program-option", level: "high", reason: `strace ${o.written} ${o.value?.text ?? ""}: the output is not static, and a value starting with | or ! is a command strace runs` })
    return
  }
  part.findings.push({ name: "program-option", level: "high", reason: `strace ${o.written} ${v}: pipes the trace into the shell command ${v.slice(1)}` })
  ex.out.push(...ex.nested(literalWord(v.slice(1)), { context: [...part.context, "shell_c"], cwd: part.cwd, loader: part.loader, exported: environment(part) }))
}

function straceEnv(part: Part, o: Valued): void {
  const v = o.value?.value
  if (v === undefined) {
    part.unresolved = `strace ${o.written} ${o.value?.text ?? ""}: the variable it sets is not static`
    return
  }
  const eq = v.indexOf("=")
  if (eq < 0) return // `-E NAME` removes NAME
  const varName = v.slice(0, eq)
  part.assignments = [...part.assignments, { name: varName, value: literalWord(v.slice(eq + 1)) }]
  if (isLoaderVar(varName)) part.loader = [...part.loader, varName]
}
