// eval and trap as the walk meets them (walk.ts): the script they run is walked in this shell's scope, so
// what it sets and where it leaves the directory count after them. Pure.
import { childScope, type Cwd, type Scope } from "./scope.ts"
import { joinCwd } from "./cwd.ts"
import { markVolatile } from "./setvars.ts"
import type { Word } from "./word.ts"

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
  if (inner.cwdLost || JSON.stringify(end) !== JSON.stringify(cwd)) scope.cwdLost = true
  return scope.cwdLost ? { ok: null, fail: null } : { ok: cwd, fail: cwd }
}
