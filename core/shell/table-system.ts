// Table entries for what reaches past the workspace through the machine itself: block devices (format,
// erase, encrypt), power through the login1/systemd D-Bus API, and ccode's own command line (an agent
// must never change ccode's trust, approvals or policy by running ccode). Part of the risk table. Pure.
import type { Entry, View } from "./table.ts"

// the block devices of Linux: disks, partitions, RAID and mapper devices
const BLOCK_DEVICE = /^\/dev\/(sd|hd|vd|xvd|nvme|mmcblk|md|dm-|loop|nbd|rbd|zd|mapper\/|disk\/)/

const POWER_CALL = /^(PowerOff|Reboot|Halt|KExec|Suspend|Hibernate|HybridSleep|SuspendThenHibernate|SoftReboot|PowerOffWithFlags|RebootWithFlags|HaltWithFlags)$|\.(PowerOff|Reboot|Halt|KExec|SoftReboot)/

// ccode's commands that only read: `policy check|show|test|schema`, `runs`, `audit` (query, verify), `plugins ls`, `db status`
const CCODE_READS = new Set(["runs", "audit", "--version", "-V", "--help", "-h", "help"])
const CCODE_READ_SUBS: Record<string, readonly string[]> = { policy: ["check", "show", "test", "schema"], plugins: ["ls"], db: ["status"] }

export const SYSTEM_ENTRIES: readonly Entry[] = [
  { name: "disk-format", level: "critical", reason: "formats, erases or encrypts a disk", programs: ["mkntfs", "mkexfatfs", "mkfs.exfat", "blkdiscard", "pvcreate", "pvremove", "vgcreate", "vgremove", "lvremove", "zpool", "badblocks", "sg_format"] },
  { name: "disk-format", level: "critical", reason: "formats, erases or encrypts a disk", programs: ["cryptsetup"], sub: ["luksFormat", "erase", "luksErase", "reencrypt", "luksKillSlot", "tcryptDump"] },
  { name: "disk-format", level: "critical", reason: "formats, erases or encrypts a disk", programs: ["mdadm"], when: (v) => v.values.some((a) => /^(-C|--create|--zero-superblock|--build|--grow)$/.test(a)) },
  { name: "disk-format", level: "critical", reason: "formats, erases or encrypts a disk", programs: ["nvme"], sub: ["format", "sanitize", "write", "write-zeroes", "dsm", "ns-delete", "delete-ns"] },
  { name: "disk-format", level: "critical", reason: "formats, erases or encrypts a disk", programs: ["hdparm"], when: (v) => v.values.some((a) => /^--(security-erase|security-erase-enhanced|trim-sector-ranges|write-sector|make-bad-sector|dco-restore)/.test(a)) },
  // a block or character node gives the disk (or memory) another name: reading it in the same command is not
  // seen on disk before it exists (`mknod blk b 7 0 && strings blk`); a FIFO (p) is an ordinary write
  { name: "device-node", level: "high", reason: "mknod makes a block or character device node: reading it reads the whole disk or device, under a name ccode cannot know for a device before it exists", programs: ["mknod"], when: (v) => !v.values.some((a) => a === "p") },
  // build tools' own web servers: what they serve is reachable by others on the network
  { name: "network-listen", level: "medium", reason: "starts an HTTP server (go tool pprof -http, ninja -t browse)", programs: ["go"], when: (v) => v.values[0] === "tool" && v.values[1] === "pprof" && v.values.some((a) => /^--?http(=|$)/.test(a)) },
  { name: "network-listen", level: "medium", reason: "starts an HTTP server (go tool pprof -http, ninja -t browse)", programs: ["ninja"], when: (v) => v.values.some((a, i) => (a === "-t" && v.values[i + 1] === "browse") || a === "-tbrowse") },
  { name: "power", level: "critical", reason: "shuts down or restarts the machine through D-Bus (login1/systemd)", programs: ["dbus-send", "busctl", "gdbus", "qdbus", "dbus-call"], when: (v) => v.values.some((a) => POWER_CALL.test(a)) },
  { name: "read-process", level: "high", reason: "attaches a debugger or tracer to a running process (gdb/lldb -p, gcore, perf -p/-a, bpftrace): reads its memory or the data of its system calls", programs: ["gdb", "lldb", "gdbserver", "gcore", "pstack", "perf", "bpftrace"], when: attachesProcess },
  { name: "ccode-self", level: "high", reason: "runs ccode itself to change its trust, approvals, runs or policy: an agent must not decide that on its own", programs: ["ccode"], when: (v) => !ccodeReads(v) },
  { name: "ccode-self", level: "safe", reason: "reads ccode's own policy, runs or audit log", programs: ["ccode"], when: ccodeReads },
]

function ccodeReads(v: View): boolean {
  const ops = v.canon.operands
  const first = v.values.find((a) => !a.startsWith("-") || CCODE_READS.has(a))
  if (first === undefined) return true
  if (CCODE_READS.has(first)) return first !== "audit" || !v.values.some((a) => a === "export" || a.startsWith("--out"))
  const subs = CCODE_READ_SUBS[first]
  return subs !== undefined && subs.includes(ops[1] ?? "")
}

/** The block device an argument names (`/dev/sdb`, `of=/dev/nvme0n1`), if any: an unknown program given one
 *  may format or erase it (blkdiscard, mkntfs, a vendor's tool). */
export function blockDevice(values: readonly string[]): string | undefined {
  for (const a of values) {
    const path = a.replace(/^[^=/]*=/, "")
    if (BLOCK_DEVICE.test(path)) return path
  }
  return undefined
}

// gdb -p PID / --pid / `gdb PROG PID` / `-ex 'attach PID'`, lldb -p / --attach-*, perf's -p/-t/-a (every
// process); gcore, pstack and bpftrace always read other processes
function attachesProcess(v: View): boolean {
  if (v.program === "gcore" || v.program === "pstack" || v.program === "bpftrace") return true
  if (v.program === "perf") return v.values.some((a) => /^(-[a-zA-Z]*[pta]|--(pid|tid|all-cpus)(=|$))/.test(a))
  return v.values.some((a) => /^(-p|--?pid|--attach|-n$|--?attach-?)/.test(a) || /^\d+$/.test(a) || /\battach\b/.test(a))
}
