// A shell call's `command` as the shell analyser (core/shell) reads it: the secret arguments of every
// simple command it finds — through wrappers, `bash -c`, `ssh`, `xargs`, quoted or escaped program
// names — hidden wherever their values appear. Adds to the text rules, never replaces them. Pure.
import { analyzeShellSync, isPlainCommand, parserReady } from "../shell/index.ts"
import type { ProgramArguments } from "./arguments.ts"
import { argvSecrets } from "./argv.ts"

/** Paths and risk do not matter here, only programs and their arguments. */
const CONTEXT = { cwd: "/", workspace: "/", home: "/" }
/** Shorter values are left to the text rules: replacing every `x` in a command would garble it. */
const MIN_LITERAL = 4

/** `redacted` (the command after the text rules) with the secrets the analyser finds hidden too; the
 *  whole command becomes `marker` when a secret is written in a way that cannot be found in it. */
export function redactParsedCommand(command: string, redacted: string, marker: string, tables: readonly (readonly ProgramArguments[])[]): string {
  // without the parser loaded only plain commands can be read; the runner loads it for decisions
  if (!parserReady() && !isPlainCommand(command)) return redacted
  let commands
  try {
    commands = analyzeShellSync(command, CONTEXT).commands
  } catch {
    return redacted
  }
  const secrets = [...new Set(commands.flatMap((c) => argvSecrets([c.program, ...c.args], tables)))]
  let out = redacted
  for (const secret of secrets.sort((a, b) => b.length - a.length)) {
    if (secret.length < MIN_LITERAL) continue
    if (out.includes(secret)) out = out.replaceAll(secret, marker)
    // spelled otherwise in the source (escapes, quotes inside it) and not hidden by the text rules
    else if (!command.includes(secret)) return marker
  }
  return out
}
