// A mapped host call, adjusted to what the host really does with its fields: the paths the host's own
// normalisation may open (hostpaths.ts), the fields that change what a tool does (an Agent's isolation,
// cwd and mode), the old argument names the host ignores (judged where the host acts instead). Pure.
import { claudePaths, geminiPaths, patternFolders } from "./hostpaths.ts"
import { HookInputError, type HookHost, type HookRaised, type HostChecks } from "./types.ts"

export interface Adjusted {
  args: Record<string, unknown>
  reads: string[]
  checks: HostChecks
}

// Claude Code normalises these before the hook (trim, `~`): the trimmed form is judged too, for a host that does not
const CLAUDE_FILE_TOOLS = new Set(["Read", "Write", "Edit", "MultiEdit", "NotebookEdit", "Grep", "Glob", "LS"])
const GEMINI_PATH_TOOLS = new Set(["read_file", "write_file", "replace", "grep_search", "search_file_content", "glob", "list_directory"])
// the Agent's permission modes that leave the subagent's calls as the parent's are
const PLAIN_MODES = new Set(["default", "plan", "acceptEdits"])

export function adjustCall(host: HookHost, name: string, args: Record<string, unknown>, reads: string[]): Adjusted {
  const raised: HookRaised[] = []
  const checks: HostChecks = {}
  const out = { ...args }
  const done = (r: string[]) => ({ args: out, reads: r, checks: raised.length ? { ...checks, raised } : checks })
  if (host === "claude") {
    if (CLAUDE_FILE_TOOLS.has(name) && typeof out.path === "string") out.path = oneOrMany(claudePaths(out.path))
    if (name === "LSP" && typeof out.filePath === "string") out.filePath = oneOrMany(claudePaths(out.filePath))
    if (name === "Glob") globFolders(out, `${name}'s tool_input.pattern`, raised)
    if (name === "Agent" || name === "Task") {
      agentFields(name, out, raised)
      if (typeof out.subagent_type === "string" && out.subagent_type) checks.agent = out.subagent_type
    }
    if (name === "Skill" && typeof out.skill === "string") checks.skill = out.skill.trim().replace(/^\//, "")
    else if (name === "Skill") raised.push({ risk: "medium", reason: "Skill has no tool_input.skill (or command): which skill loads, and the commands its file runs, is not known" })
    return done(reads)
  }
  if (name === "run_shell_command") {
    oldDirectory(out, raised)
    shellFolder(out, raised)
  }
  if (name === "grep_search" || name === "search_file_content" || name === "glob") oldPath(name, out)
  if (GEMINI_PATH_TOOLS.has(name)) {
    const given = Array.isArray(out.path) ? (out.path as string[]) : typeof out.path === "string" ? [out.path] : []
    const all = [...new Set(given.flatMap((p) => geminiPaths(p, `${name}'s path`, raised)))]
    if (given.length) out.path = oneOrMany(all)
    // replace on a file that is not there edits one of that name found elsewhere (its path corrector)
    if (name === "replace" && all.length) checks.mustExist = all
  }
  if (name === "glob") globFolders(out, `${name}'s tool_input.pattern`, raised)
  return done([...new Set(reads.flatMap((p) => geminiPaths(p, `${name}'s path`, raised, true)))])
}

// one path stays a string (as the tool takes it); several are all judged (a declared path may be a list)
function oneOrMany(paths: string[]): string | string[] {
  return paths.length === 1 ? paths[0]! : paths
}

// an absolute, `~/` or `..` pattern lists another folder than `path`: that folder is judged too
function globFolders(args: Record<string, unknown>, field: string, raised: HookRaised[]): void {
  if (typeof args.pattern !== "string") return
  const folders = patternFolders(args.pattern, field, raised)
  if (!folders.length) return
  const given = Array.isArray(args.path) ? (args.path as string[]) : typeof args.path === "string" ? [args.path] : ["."]
  args.path = [...new Set([...given, ...folders])]
}

// Claude Code's Agent/Task: `isolation` creates a git worktree (or a remote session), `cwd` moves the
// subagent's files and commands, `mode` sets how its calls are approved
function agentFields(name: string, args: Record<string, unknown>, raised: HookRaised[]): void {
  const isolation = args.isolation
  if (isolation === "worktree") {
    raised.push({ risk: "high", reason: `${name}'s tool_input.isolation is "worktree": Claude Code runs \`git worktree add\` into .claude/worktrees (a checkout: the repository's hooks and filters run), as EnterWorktree` })
  } else if (isolation === "remote") {
    raised.push({ risk: "high", reason: `${name}'s tool_input.isolation is "remote": Claude Code sends the repository to a remote session, or falls back to a git worktree checkout` })
  } else if (isolation !== undefined) {
    raised.push({ risk: "high", reason: `${name}'s tool_input.isolation is ${JSON.stringify(isolation)}: what Claude Code does with it is not known` })
  }
  // judged as a folder the subagent writes in (outside the workspace: high)
  if (typeof args.cwd === "string" && !args.cwd.startsWith("/")) {
    raised.push({ risk: "medium", reason: `${name}'s tool_input.cwd ${JSON.stringify(args.cwd)} is not an absolute path: where the subagent runs is not known` })
  }
  const mode = args.mode
  if (mode === undefined || (typeof mode === "string" && PLAIN_MODES.has(mode))) return
  const level = mode === "auto" || mode === "dontAsk" ? "medium" : "high"
  raised.push({ risk: level, reason: `${name}'s tool_input.mode is ${JSON.stringify(mode)}: the subagent's calls are approved that way (ccode's hook still sees them, the host's own prompts may not be shown)` })
}

// Gemini CLI 0.61 reads only dir_path: `directory` alone runs the command in the workspace root, where it
// is judged; an older release ran it in `directory`, which is not judged: high, naming the field. Both
// given and different: which one runs is a guess (refused, as for any old and new name that disagree).
function oldDirectory(args: Record<string, unknown>, raised: HookRaised[]): void {
  const old = args.directory
  delete args.directory
  if (typeof old !== "string" || old === args.cwd) return
  if (args.cwd !== undefined) throw new HookInputError("run_shell_command gives both tool_input.dir_path and directory, with different values")
  raised.push({ risk: "high", reason: `run_shell_command's tool_input.directory ${JSON.stringify(old)} is an old argument name Gemini CLI 0.61 ignores (it runs the command in the workspace root, where it is judged); an older release would run it there` })
}

// the shell's dir_path is resolved as written by 0.61; a spelling another step may turn into another folder
// (`@`, `%XX`, file://, NUL) leaves where the command runs unknown: high, naming the field
function shellFolder(args: Record<string, unknown>, raised: HookRaised[]): void {
  if (typeof args.cwd !== "string") return
  const spellings = geminiPaths(args.cwd, "run_shell_command's dir_path", raised)
  if (spellings.length > 1) raised.push({ risk: "high", reason: `run_shell_command's tool_input.dir_path ${JSON.stringify(args.cwd)} may name another folder once Gemini CLI resolves it (${spellings.slice(1).map((p) => JSON.stringify(p)).join(", ")}): where the command runs is not known` })
}

// grep_search/glob's old `path`: the host searches dir_path (default the workspace root); both places are judged
function oldPath(name: string, args: Record<string, unknown>): void {
  const old = args.old_path
  delete args.old_path
  if (typeof old !== "string") return
  if (typeof args.path === "string" && args.path !== old) throw new HookInputError(`${name} gives both tool_input.dir_path and path, with different values`)
  // the host searches the workspace root; an older release searched `path`
  args.path = old === "." ? old : [".", old]
}
