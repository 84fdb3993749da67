// Extractors and patchers without a target folder (tar -x without -C, unzip without -d, patch without
// -d) write names not known here below the folder they run in: that folder is judged as a write, so
// `cd .git/hooks && tar xf x.tar` is a write of .git/hooks. Pure.
import type { Finding } from "./raw.ts"
import type { View } from "./table.ts"
import { writeVerdict } from "./paths.ts"
import { literalWord } from "./word.ts"
import { riskRank } from "../base/risk.ts"

/** Judge the current folder as written (at least medium: what is written there is not known). */
export function workingFolder(v: View, out: Finding[], what: string): void {
  const here = literalWord(".")
  v.writes.push(here)
  const verdict = writeVerdict(here, v.part.cwd, v.place)
  const level = verdict && riskRank(verdict.level) > riskRank("medium") ? verdict.level : "medium"
  out.push({ name: "write-files", level, reason: verdict ? `${what}: ${verdict.reason}` : what })
}
