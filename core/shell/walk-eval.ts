// eval and trap as the walk meets them (walk.ts): the script they run is walked in this shell's scope, so
// what it sets and where it leaves the directory count after them. Pure.
import { childScope, type Cwd, type Scope } from "./scope.ts"
import { joinCwd } from "./cwd.ts"
import { builtinCall, markVolatile } from "./setvars.ts"
import type { Word } from "./word.ts"
import type { RawCommand } from "./raw.ts"

/** Where a statement leaves the directory when it succeeds and when it fails (null: not known). */
export interface Outcome {
  ok: Cwd
  fail: Cwd
}

/** Walks a script given as text in a scope, from the current directory; where it ends (null: not known). */
export type Run = (text: string, scope: Scope) => Cwd

/** eval runs its words, joined, as a script in this shell: what it sets and where it moves count after it. */
export function evalScript(args: Word[], scope: Scope, cwd: Cwd, run: Run): Outcome {
  // a script not static is unresolvable already (hooks.ts); where it leaves the shell is not known
  if (args.some((a) => a.value === undefined)) return { ok: null, fail: null }
  const end = run(args.map((a) => a.value).join(" "), scope)
  return { ok: end, fail: joinCwd(cwd, end) }
}

/** A trap handler runs at times not known (DEBUG before every command): what it sets has no known value
 *  after the trap, and if it changes the directory no later directory is known. */
export function trap(args: Word[], scope: Scope, cwd: Cwd, run: Run): Outcome {
  const at = args[0]?.value === "--" ? 1 : 0
  const handler = args[at]
  if (!handler || args.length - at < 2 || (at === 0 && handler.value?.startsWith("-"))) return { ok: cwd, fail: cwd }
  const inner = childScope(scope)
  const end = handler.value === undefined ? null : run(handler.value, inner)
  const o = lateEffects(scope, inner, cwd, end)
  return { ok: o.ok, fail: o.ok }
}

/** What a body run at times not known (a trap handler, a function) leaves behind: the variables it sets
 *  have no known value, a directory change in it makes every later directory unknown, and so does a
 *  brace expansion setting the words brace-expanded. */
export function lateEffects(scope: Scope, inner: Scope, cwd: Cwd, end: Cwd): Outcome {
  scope.loader.push(...inner.loader)
  for (const n of inner.exported) scope.exported.add(n)
  markVolatile(scope, inner.vars.keys())
  // `set +B` in it: from its first run on, brace words may or may not be expanded
  if (inner.braceexpand !== undefined) scope.braceexpand = "unknown"
  // a pushd, popd or DIRSTACK assignment in it changes the directory stack at times not known
  if (inner.dirs !== undefined) scope.dirs = []
  if (inner.cwdLost || JSON.stringify(end) !== JSON.stringify(cwd)) scope.cwdLost = true
  return scope.cwdLost ? { ok: null, fail: null } : { ok: cwd, fail: cwd }
}

/** A trap handler fires later: before or after any command that follows it (DEBUG, ERR, RETURN) or when
 *  the shell ends (EXIT). Its relative paths are judged in every directory the shell may be in from the
 *  trap on (`trap 'cat .netrc' EXIT; cd ~` reads ~/.netrc): each trap's cwd becomes their union, with
 *  the directories the statement lists (a subshell's, a group's) end in (`ends`, by the number of
 *  commands walked when they ended). A function body runs whenever the function is called: its
 *  commands get the same union (`f() { echo x > pre-commit; }; cd .git/hooks; f` writes the hook). */
export function lateDirectories(commands: RawCommand[], ends: { at: number; cwd: Cwd }[]): void {
  const late = (c: RawCommand) => c.context.includes("function") || builtinCall(c.words).name === "trap"
  if (!commands.some((c) => c.context.includes("function") || c.words.some((w) => w.value === "trap"))) return
  let later: Cwd = []
  let e = ends.length - 1
  for (let i = commands.length - 1; i >= 0; i--) {
    for (; e >= 0 && ends[e]!.at > i; e--) later = joinCwd(later, ends[e]!.cwd)
    const c = commands[i]!
    const own = c.cwd
    if (late(c)) c.cwd = joinCwd(own, later)
    later = joinCwd(later, own)
  }
}
