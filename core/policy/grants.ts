// Session grants ("allow for this run"): building the similar-pattern grant for an approved call,
// and whether a grant covers a part of a later call. Never for critical risk. Pure.
import { posix } from "node:path"
import { matchCommandPattern } from "../shell/index.ts"
import type { SimpleCommand } from "../shell/types.ts"
import type { Call, Decision, Grant } from "./types.ts"
import { toolMatcher } from "./glob.ts"
import { pathPatternRegex } from "./paths.ts"

/**
 * The grant an "allow for this run" answer creates: shell `git commit -m x` -> `git commit *`;
 * a file tool -> that tool under the file's directory; any other tool -> the whole tool.
 * undefined when a grant could not or must not apply: critical risk, a deny, an ask rule
 * (grants are allow rules and lose to ask rules), or a command that cannot be resolved.
 */
export function grantFor(call: Call, decision: Decision, source = "user"): Grant | undefined {
  if (decision.risk === "critical" || decision.decision === "deny") return undefined
  if (decision.by === "rule" && decision.decision === "ask") return undefined
  if (call.shell) {
    if (call.shell.unresolvable || call.shell.commands.some((c) => c.loaderEnv)) return undefined
    const patterns = [...new Set(call.shell.commands.map(commandGrantPattern))]
    if (!patterns.length) return undefined
    return patterns.length === 1 ? { tool: call.tool, pattern: patterns[0]!, source } : { tool: call.tool, pattern: patterns[0]!, patterns, source }
  }
  // a folder the tool reads below is covered itself; for a file, its folder is
  const dirs = [...new Set(call.paths.map((p) => (p.access === "read" && p.dir ? p.path : posix.dirname(p.path))))]
  if (dirs.length === 1) return { tool: call.tool, pattern: dirs[0] === "/" ? "/**" : `${escapeGlob(dirs[0]!)}/**`, source }
  if (dirs.length > 1) return undefined
  return { tool: call.tool, source }
}

/** Every pattern a grant covers, as a person must see them before approving it (or the tool, for a whole-tool grant). */
export function grantLabel(grant: Grant): string {
  const patterns = grant.patterns ?? (grant.pattern === undefined ? [] : [grant.pattern])
  return patterns.length ? patterns.join(", ") : `any ${grant.tool} call`
}

/** Does the grant cover this part of the call (a simple command, or the whole call for other tools)? */
export function grantCovers(grant: Grant, call: Call, part: SimpleCommand | undefined): boolean {
  if (grant.tool !== call.tool && !toolMatcher([grant.tool])(call.tool)) return false
  if (grant.pattern === undefined) return true
  if (call.shell) {
    if (!part) return false
    const patterns = grant.patterns ?? [grant.pattern]
    return patterns.some((p) => matchCommandPattern(p, part, "allow"))
  }
  if (!call.paths.length) return false
  const re = grantRegex(grant.pattern, call)
  return call.paths.every((p) => re.test(p.path))
}

// Programs whose first argument names what they do (`git commit`, `npm install`), so the grant keeps it;
// for script runners the script name is kept too (`npm run test` -> `npm run test *`).
const SUBCOMMANDS = new Set([
  "git", "npm", "pnpm", "yarn", "bun", "deno", "cargo", "go", "docker", "podman", "kubectl", "gh", "pip", "pip3",
  "uv", "poetry", "make", "just", "dotnet", "mvn", "gradle", "brew", "apt", "apt-get", "systemctl", "terraform", "helm",
])
const SCRIPT_RUNNERS = new Set(["run", "run-script", "exec", "x"])

export function commandGrantPattern(cmd: SimpleCommand): string {
  const words = [cmd.program]
  const [first, second] = cmd.args
  if (SUBCOMMANDS.has(cmd.program) && first !== undefined && isWord(first)) {
    words.push(first)
    if (SCRIPT_RUNNERS.has(first) && second !== undefined && isWord(second)) words.push(second)
  }
  return `${words.map(quoteToken).join(" ")} *`
}

function isWord(arg: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9:._-]*$/.test(arg)
}

function quoteToken(token: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(token) ? token : `'${token.replace(/'/g, `'\\''`)}'`
}

function escapeGlob(path: string): string {
  return path.replace(/[*?[\]{}\\]/g, "\\$&")
}

const regexes = new Map<string, RegExp>()

function grantRegex(pattern: string, call: Call): RegExp {
  const key = `${pattern}\0${call.workspace}\0${call.home}`
  let re = regexes.get(key)
  if (!re) {
    if (regexes.size > 256) regexes.clear()
    re = pathPatternRegex(pattern, call.workspace, call.home)
    regexes.set(key, re)
  }
  return re
}
