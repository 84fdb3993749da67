// The walker's state and the small pieces of the walk that need nothing of it but that state (walk.ts
// holds the recursion). Pure.
import type { Construct } from "./types.ts"
import type { RawRedirect, Stdin, Walked } from "./raw.ts"
import type { Cwd, ShellEnv } from "./scope.ts"
import { joinCwd } from "./cwd.ts"
import type { Outcome } from "./walk-eval.ts"

export interface Walker {
  src: string
  shell: ShellEnv
  out: Walked
  /** stdin a whole compound statement reads (`{ ..; } <<EOF`, a list tree-sitter hung a heredoc on):
   *  every command inside without its own gets it, so a shell among them is seen reading it */
  inherited?: Stdin
  /** where statement lists end, by the number of commands walked then: the directories a trap handler
   *  may fire in (kept only when the script mentions trap) */
  ends?: { at: number; cwd: Cwd }[]
}

export function addCtx(ctx: Construct[], c: Construct): Construct[] {
  return ctx[ctx.length - 1] === c ? ctx : [...ctx, c]
}

export function groupOutcome(before: Cwd, after: Cwd): Outcome {
  return { ok: after, fail: joinCwd(before, after) }
}

export function flip(o: Outcome): Outcome {
  return { ok: o.fail, fail: o.ok }
}

/** A redirect bash opens although no command walked for its statement carries it (`[[ .. ]] > FILE`,
 *  `(( .. )) 2> FILE`, `{ x=1; } > FILE`, `declare x > FILE`, `unset x 2> FILE`, a function's own
 *  redirects): judged on its own like a bare `> FILE`, since the file is opened (created, truncated,
 *  read by the substitutions inside, connected for /dev/tcp) all the same. */
export function uncarried(w: Walker, own: RawRedirect[], from: number, at: Cwd): void {
  const added = w.out.commands.slice(from)
  for (const r of own) {
    if (r.dup !== undefined || added.some((c) => c.redirects.includes(r))) continue
    w.out.bare.push(r)
    w.out.bareCwd.push(at)
  }
}

/** Walk with `stdin` as what every command inside reads when it has no stdin of its own. */
export function withStdin<T>(w: Walker, stdin: Stdin | undefined, walk: () => T): T {
  if (!stdin) return walk()
  const before = w.inherited
  w.inherited = stdin
  try {
    return walk()
  } finally {
    w.inherited = before
  }
}
