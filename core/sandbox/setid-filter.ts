// The seccomp filter every sandboxed call runs under: no file gets a set-user-ID or set-group-ID bit.
// A sandboxed step as root owns what it writes in the workspace, and an owner may set S_ISUID without
// any capability; the file outlives the sandbox (a nosuid mount inside does not follow it to the host),
// so `install -m 4755 /bin/bash tool` would leave a root shell for every local user. chmod, fchmod,
// fchmodat(2), mknod(at) and open/openat/creat that create (O_CREAT, O_TMPFILE) with either bit fail
// with EPERM; openat2 and io_uring (whose arguments a filter cannot read) with ENOSYS, which libraries
// fall back from. Pure: the classic BPF program as bytes, for bwrap's --seccomp.

const ALLOW = 0x7fff0000
const ERRNO = 0x00050000
const EPERM = 1
const ENOSYS = 38
const SET_ID = 0o6000
/** O_CREAT | __O_TMPFILE: the flags under which open's mode argument is used (the same on every arch here) */
const CREATES = 0o100 | 0o20000000

/** How a system call is judged: its mode argument, its flags then mode, or refused outright. */
type Rule = { mode: number } | { flags: number; mode: number } | "nosys"

interface Arch {
  audit: number
  calls: Record<number, Rule>
  /** x86_64's x32 ABI: system call numbers with this bit set are refused */
  x32?: number
}

const X86_64: Arch = {
  audit: 0xc000003e, x32: 0x40000000,
  calls: { 90: { mode: 1 }, 91: { mode: 1 }, 268: { mode: 2 }, 452: { mode: 2 }, 2: { flags: 1, mode: 2 }, 257: { flags: 2, mode: 3 }, 85: { mode: 1 }, 133: { mode: 1 }, 259: { mode: 2 }, 437: "nosys", 425: "nosys" },
}
const I386: Arch = {
  audit: 0x40000003,
  calls: { 15: { mode: 1 }, 94: { mode: 1 }, 306: { mode: 2 }, 452: { mode: 2 }, 5: { flags: 1, mode: 2 }, 295: { flags: 2, mode: 3 }, 8: { mode: 1 }, 14: { mode: 1 }, 297: { mode: 2 }, 437: "nosys", 425: "nosys" },
}
const AARCH64: Arch = {
  audit: 0xc00000b7,
  calls: { 52: { mode: 1 }, 53: { mode: 2 }, 452: { mode: 2 }, 56: { flags: 2, mode: 3 }, 33: { mode: 2 }, 437: "nosys", 425: "nosys" },
}
const ARM: Arch = {
  audit: 0x40000028,
  calls: { 15: { mode: 1 }, 94: { mode: 1 }, 333: { mode: 2 }, 452: { mode: 2 }, 5: { flags: 1, mode: 2 }, 322: { flags: 2, mode: 3 }, 8: { mode: 1 }, 14: { mode: 1 }, 324: { mode: 2 }, 437: "nosys", 425: "nosys" },
}

/** The architectures a process on this machine may call the kernel with; undefined where ccode has no table. */
export function setIdArches(arch: string = process.arch): Arch[] | undefined {
  if (arch === "x64") return [X86_64, I386]
  if (arch === "arm64") return [AARCH64, ARM]
  return undefined
}

type Instr = { code: number; k: number; jt?: string; jf?: string } | { label: string }

const LD_ABS = 0x20
const JEQ = 0x15
const JGE = 0x35
const JSET = 0x45
const RET = 0x06
/** offsets in struct seccomp_data: nr, arch, then the six 64-bit arguments (their low word first) */
const NR = 0
const ARCH = 4
const arg = (i: number) => 16 + 8 * i

/** The filter for these architectures; a call from any other is refused (ENOSYS). */
export function setIdFilter(arches: readonly Arch[]): Buffer {
  const prog: Instr[] = [{ code: LD_ABS, k: ARCH }]
  arches.forEach((a, i) => prog.push({ code: JEQ, k: a.audit, jt: `arch${i}`, jf: i === arches.length - 1 ? "nosys" : undefined }))
  arches.forEach((a, i) => {
    prog.push({ label: `arch${i}` }, { code: LD_ABS, k: NR })
    if (a.x32) prog.push({ code: JGE, k: a.x32, jt: "nosys" })
    const calls = Object.entries(a.calls)
    calls.forEach(([nr, rule], j) => prog.push({ code: JEQ, k: Number(nr), jt: rule === "nosys" ? "nosys" : `a${i}c${j}` }))
    prog.push({ code: RET, k: ALLOW })
    calls.forEach(([, rule], j) => {
      if (rule === "nosys") return
      prog.push({ label: `a${i}c${j}` })
      if ("flags" in rule) prog.push({ code: LD_ABS, k: arg(rule.flags) }, { code: JSET, k: CREATES, jf: "allow" })
      prog.push({ code: LD_ABS, k: arg(rule.mode) }, { code: JSET, k: SET_ID, jt: "eperm", jf: "allow" })
    })
  })
  prog.push({ label: "allow" }, { code: RET, k: ALLOW }, { label: "eperm" }, { code: RET, k: ERRNO | EPERM }, { label: "nosys" }, { code: RET, k: ERRNO | ENOSYS })
  return assemble(prog)
}

// labels resolved to forward jumps; struct sock_filter { u16 code; u8 jt; u8 jf; u32 k }, little-endian
function assemble(prog: Instr[]): Buffer {
  const at = new Map<string, number>()
  const code: Exclude<Instr, { label: string }>[] = []
  for (const i of prog) {
    if ("label" in i) at.set(i.label, code.length)
    else code.push(i)
  }
  const out = new DataView(new ArrayBuffer(code.length * 8))
  code.forEach((i, n) => {
    const jump = (label: string | undefined) => {
      if (!label) return 0
      const offset = at.get(label)! - n - 1
      if (offset < 0 || offset > 255) throw new Error(`seccomp filter: jump to ${label} out of range`)
      return offset
    }
    out.setUint16(n * 8, i.code, true)
    out.setUint8(n * 8 + 2, jump(i.jt))
    out.setUint8(n * 8 + 3, jump(i.jf))
    out.setUint32(n * 8 + 4, i.k >>> 0, true)
  })
  return Buffer.from(out.buffer)
}
