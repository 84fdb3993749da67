// Risk of a prepared call (the second step of decide(), after the guards): the max of the tool's base risk, the shell
// analysis, risk.commands, risk.paths, writes outside the workspace and to protected paths. Pure.
import { riskRank, type Risk } from "../base/risk.ts"
import type { Call } from "./types.ts"
import type { CompiledPolicy } from "./compile.ts"
import { isInside } from "../base/paths.ts"
import { startupFile } from "../shell/startup.ts"
import { ownDatabase, ownFileWrite } from "./owndirs.ts"

export interface RiskAssessment {
  risk: Risk
  /** why, strongest first */
  reasons: string[]
  /** per simple command of a shell call: its own risk (analysis + matching risk.commands) */
  commands: { risk: Risk; reasons: string[] }[]
}

const NOT_WRITES = new Set(["/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/fd/1", "/dev/fd/2"])

export function assessRisk(cp: CompiledPolicy, call: Call): RiskAssessment {
  const found = findings()
  const policyLevel = cp.toolRisk(call.tool)
  const base = policyLevel ?? call.toolRisk
  if (base === undefined) found.add("medium", `${call.tool} is not a known tool`)
  else found.add(base, policyLevel !== undefined ? `risk.tools: ${call.tool} is ${base}` : `${call.tool} is ${base}`)
  const floor = cp.toolFloor(call.tool)
  if (floor) found.add(floor, `risk.tools: ${call.tool} is at least ${floor}`)
  for (const r of call.raised ?? []) found.add(r.risk, r.reason)

  const commands: RiskAssessment["commands"] = []
  const shell = call.shell
  if (shell) {
    // the analysis' own reason says what could not be resolved (a subscript, a variable, a parse error)
    if (shell.unresolvable) found.add("critical", shell.parseError ?? (shell.risk === "critical" ? shell.reasons[0] : undefined) ?? "the command cannot be resolved statically")
    for (const reason of shell.reasons) found.add(shell.risk, reason)
    for (const cmd of shell.commands) {
      let level = cmd.risk
      const raised: string[] = []
      found.add(cmd.risk, cmd.reasons[0] ?? `${cmd.program} is ${cmd.risk}`)
      for (const rc of cp.riskCommands) {
        if (!rc.re.test(cmd.text)) continue
        if (riskRank(rc.level) > riskRank(level)) level = rc.level
        raised.push(riskCommandReason(rc))
        found.add(rc.level, riskCommandReason(rc))
      }
      // a policy regex that raised the level explains it better than the classifier's own reason
      commands.push({ risk: level, reasons: level === cmd.risk ? [...cmd.reasons, ...raised] : [...raised, ...cmd.reasons] })
    }
    for (const rc of cp.riskCommands) if (rc.re.test(shell.source)) found.add(rc.level, riskCommandReason(rc))
  }

  for (const p of call.paths) {
    for (const rp of cp.riskPaths) {
      if (rp.set.hits(p.path, call.workspace, call.home, p.glob)) found.add(rp.level, rp.reason ? `${p.path} ${rp.reason}` : `${p.path} matches risk.paths "${rp.pattern}"`)
    }
    const db = ownDatabase(call.ownPaths, p.path)
    if (db && p.access !== "write") found.add("high", `opens ccode's own database ${db} (its runs, grants and audit): a program given it can change them`)
    if (p.access !== "write" || NOT_WRITES.has(p.path)) continue
    // the host tools' writes too (write_file, Claude's Write/Edit): with the workspace in or at the
    // home, ~/.bashrc or ~/.gitconfig is a workspace file, and the next shell or git runs what it says
    const startup = startupFile(p.path, call.home)
    if (startup) found.add("critical", startup)
    const own = ownFileWrite(call.ownPaths, p.path, call.tmpDirs)
    if (own) found.add("critical", own)
    const asDotGit = call.gitDirs && cp.protectedPaths.patterns.length ? dotGitAlias(call.gitDirs, call.workspace, p.path) : undefined
    if (cp.protectedPaths.patterns.length && cp.protectedPaths.hits(p.path, call.workspace, call.home, p.glob)) {
      found.add("critical", `writes to the protected path ${p.path}`)
    } else if (hooksDir(call.hooksDirs, p.path)) {
      found.add("critical", `writes to ${p.path} in ${hooksDir(call.hooksDirs, p.path)}, the hooks folder the repository's core.hooksPath names: git runs the programs there`)
    } else if (includedBy(call, p.path)) {
      const inc = includedBy(call, p.path)!
      found.add("critical", `writes to ${p.path}${inc.file === p.path ? "" : `, the folder of ${inc.file}`}, a file ${inc.by} includes (include.path): git reads its settings as configuration, and core.fsmonitor or core.hooksPath there run programs`)
    } else if (asDotGit && cp.protectedPaths.hits(asDotGit, call.workspace, call.home, p.glob)) {
      found.add("critical", `writes to the protected path ${p.path}: the workspace's git directory (its .git file points there), protected as ${asDotGit}`)
    } else if (!isInside(call.workspace, p.path) && !call.tmpDirs.some((t) => isInside(t, p.path))) {
      found.add("high", `writes outside the workspace: ${p.path}`)
    }
  }
  return { risk: found.level, reasons: found.reasons(), commands }
}

// the git config file (one a repository's config includes) a write is, or a folder below the workspace
// it is in (`mv dir cfg` when include.path = ../cfg/x.cfg)
function includedBy(call: Call, path: string): { file: string; by: string } | undefined {
  return call.gitIncludes?.find((i) => i.file === path || (isInside(path, i.file) && path !== call.workspace && !isInside(path, call.workspace)))
}

// the hooks folder (core.hooksPath) a path is in or is
function hooksDir(dirs: readonly string[] | undefined, path: string): string | undefined {
  return dirs?.find((d) => isInside(d, path))
}

// a path in the git directory the workspace's .git file points to, as the same path below .git
function dotGitAlias(gitDirs: readonly string[], workspace: string, path: string): string | undefined {
  const dir = gitDirs.find((d) => isInside(d, path))
  return dir === undefined ? undefined : `${workspace}/.git${path.slice(dir.length)}`
}

function riskCommandReason(rc: CompiledPolicy["riskCommands"][number]): string {
  return `risk.commands ${rc.id} (${rc.source}): ${rc.reason ?? rc.level}`
}

// Levels with their reasons, so the decision can say why without a second pass.
function findings() {
  const items: [rank: number, reason: string][] = []
  const state = {
    level: "safe" as Risk,
    add(level: Risk, reason: string): void {
      if (riskRank(level) > riskRank(state.level)) state.level = level
      items.push([riskRank(level), reason])
    },
    reasons(): string[] {
      items.sort((a, b) => b[0] - a[0])
      return [...new Set(items.map(([, text]) => text))]
    },
  }
  return state
}
