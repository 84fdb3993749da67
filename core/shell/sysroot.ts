// lscpu and lsblk `--sysroot DIR` (lscpu `-s DIR`): they read files at fixed paths below DIR
// (proc/cpuinfo, sys/devices/system/cpu/..., sys/block/...) and print their text, following the links
// there: a link in a workspace folder can lead to a credential, and no walk of DIR is judged. Pure.
import type { Finding } from "./raw.ts"
import type { View } from "./table.ts"
import type { OptionReading } from "./getopt.ts"

export function sysrootRead(v: View, reading: OptionReading, out: Finding[]): void {
  if (v.program !== "lscpu" && v.program !== "lsblk") return
  // lsblk's list takes any option (no long names): its --sysroot is found by prefix on the words
  const valued = reading.valued.find((o) => o.name === "s" || o.name === "sysroot")
  const written = valued?.written ?? (v.program === "lsblk" ? v.values.find((a) => /^--sy(s(r(o(ot?)?)?)?)?(=|$)/.test(a)) : undefined)
  if (written === undefined) return
  out.push({ name: "read-unknown", level: "high", reason: `${v.program} ${written.split("=")[0]} reads and prints files below the folder it names, following the links there (a link can lead to a credential)` })
}
