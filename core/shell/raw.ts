// The intermediate form both readers produce (the plain fast path and the tree-sitter walk): one entry
// per simple command, words already unquoted and evaluated. Plain data.
import type { Risk } from "../base/risk.ts"
import type { Construct, Redirect } from "./types.ts"
import type { Cwd } from "./scope.ts"
import type { Word } from "./word.ts"

export interface RawRedirect {
  op: Redirect["op"]
  target: Word
  access: Redirect["access"]
  /** the descriptor written before the operator (`9</root`); undefined: the operator's own */
  fd?: number
  /** `N>&M`, `N<&M`: descriptor N becomes a copy of M; "-": N is closed. Not a file (fds.ts) */
  dup?: number | "-"
}

/** Where a command's standard input comes from, when that matters (a shell reading its script). */
export type Stdin =
  | { kind: "pipe"; from: string[]; script?: Word }
  | { kind: "heredoc" | "herestring"; body: Word }
  | { kind: "file"; target: Word }

export interface RawCommand {
  /** program and arguments */
  words: Word[]
  assignments: { name: string; value: Word }[]
  redirects: RawRedirect[]
  context: Construct[]
  text: string
  cwd: Cwd
  stdin?: Stdin
  /** loader variables the script set before this command (export LD_PRELOAD=..) */
  loader: string[]
  /** variables the script exported, which a child shell inherits */
  exported?: Map<string, string | undefined>
  /** the command calls the function it sits in, in the background or a pipe: a fork bomb */
  forkBomb?: boolean
}

/** Redirects with no command (`> file`): still writes. */
export interface Walked {
  commands: RawCommand[]
  bare: RawRedirect[]
  /** cwd candidates each bare redirect resolves from */
  bareCwd: Cwd[]
  /** constructs whose effect cannot be known statically (arithmetic on a variable the script set) */
  unresolved?: string[]
  /** what the script's own syntax does beside its commands (a `$"..."` string is translated at run time) */
  findings?: Finding[]
}

/** One built-in classification that applied: its table name (policy risk.overrides can change its level). */
export interface Finding {
  name: string
  level: Risk
  reason: string
}
