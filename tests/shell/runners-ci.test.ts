// Under the bundled `ci` policy (medium runs by itself, asking means deny), a program ccode does not know
// that runs its arguments as a command must not carry a denied command through, and git's push plumbing
// (send-pack, http-push) is a push like git push.
import { beforeAll, describe, expect, test } from "bun:test"
import { loadParser } from "../../core/shell/index.ts"
import { bundledPolicy } from "../../core/policy/bundled.ts"
import { decideUnder } from "./attacks.ts"

beforeAll(() => loadParser())
const ci = bundledPolicy("ci")

describe("unknown wrappers under the ci policy", () => {
  const denied: [string, string][] = [
    ["chrt -o 0 mkfs.ext4 -F disk.img", "no-mkfs"],
    ["prlimit git push --force ../remote.git master:main", "no-force-push"],
    ["setpriv git push -f ../remote.git master:main", "no-force-push"],
    ["chrt -o 0 git push -f origin main", "no-force-push"],
    ["chrt -o 0 reboot", "no-power-off"],
    ["chrt -o 0 dd if=/dev/zero of=/dev/sda", "no-raw-disk-write"],
    ["setpriv mkfs.ext4 -F disk.img", "no-mkfs"],
    ["prlimit --nofile=100 mkfs.ext4 -F disk.img", "no-mkfs"],
    ["numactl --all mkfs.ext4 -F disk.img", "no-mkfs"],
    ["faketime now mkfs.ext4 -F disk.img", "no-mkfs"],
    ["sg root -c \"mkfs.ext4 -F disk.img\"", "no-mkfs"],
    ["valgrind mkfs.ext4 -F disk.img", "no-mkfs"],
    ["linux64 mkfs.ext4 -F disk.img", "no-mkfs"],
    ["setarch x86_64 mkfs.ext4 -F disk.img", "no-mkfs"],
    ["capsh -- -c \"mkfs.ext4 -F disk.img\"", "no-mkfs"],
    ["expect -c \"spawn mkfs.ext4 -F disk.img\"", "no-mkfs"],
    ["chrt -o 0 /sbin/mkfs.ext4 -F disk.img", "no-mkfs"],
    ["setpriv --reuid cat mkfs.ext4 -F disk.img", "no-mkfs"],
    ["git send-pack --force ../remote.git master:main", "no-force-push"],
    ["git send-pack ../remote.git +master:main", "no-force-push"],
    ["git send-pack --force ssh://example.com/r.git master:main", "no-force-push"],
    ["git http-push --force https://example.com/r.git main", "no-force-push"],
  ]
  for (const [cmd, rule] of denied) {
    test(cmd, async () => {
      const d = await decideUnder(ci, cmd)
      expect({ decision: d.decision, holds: d.reason.includes(rule), reason: d.reason }).toEqual({ decision: "deny", holds: true, reason: d.reason })
    })
  }

  test("a push through the plumbing is never auto-approved", async () => {
    for (const cmd of ["git send-pack --mirror ../remote.git", "git send-pack ../remote.git main", "git push --mirr origin"]) {
      const d = await decideUnder(ci, cmd)
      expect([cmd, d.decision, d.risk === "high" || d.risk === "critical"]).toEqual([cmd, "ask", true])
    }
  })

  test("ccode's own trust/approval commands, disk erasers and D-Bus power calls are never auto-approved", async () => {
    for (const cmd of ["ccode trust", "ccode approve 1", "ccode policy sign x", "blkdiscard /dev/sdb", "mkntfs /dev/sdb1", "cryptsetup luksFormat /dev/sdb", "nvme format /dev/nvme0n1",
      "busctl call org.freedesktop.login1 /org/freedesktop/login1 org.freedesktop.login1.Manager Reboot b false"]) {
      const d = await decideUnder(ci, cmd)
      expect([cmd, d.decision]).toEqual([cmd, "ask"])
    }
  })

  test("chrt, setarch, linux64 are transparent: what they run is judged alone", async () => {
    for (const cmd of ["chrt -o 0 ls", "setarch x86_64 -R git status", "linux64 cat README.md"]) {
      const d = await decideUnder(ci, cmd)
      expect([cmd, d.decision, d.risk]).toEqual([cmd, "allow", "safe"])
    }
  })

  test("the same wrappers around everyday commands stay what they were (unknown: medium, allowed in ci)", async () => {
    for (const cmd of ["prlimit ls", "numactl --all make", "faketime now date", "valgrind ./a.out", "./run.sh test", "mytool --name cat src"]) {
      const d = await decideUnder(ci, cmd)
      expect([cmd, d.decision, d.risk]).toEqual([cmd, "allow", "medium"])
    }
  })
})
