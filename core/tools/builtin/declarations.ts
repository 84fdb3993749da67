// What each built-in tool touches (its `effects` and `paths`), apart from the tools themselves so
// hook mode and `policy check` can read them without loading zod and the tools' code. Each built-in
// spreads its entry: this is the one declaration. Pure data.
import type { Effect, PathArg } from "../types.ts"

interface BuiltinDeclaration {
  effects: readonly Effect[]
  paths: readonly PathArg[]
}

const FOLDER: readonly PathArg[] = [{ arg: "path", access: "read", default: ".", dir: true }]
const NOTHING: BuiltinDeclaration = { effects: [], paths: [] }

export const BUILTIN_DECLARATIONS: Readonly<Record<string, BuiltinDeclaration>> = {
  // what a command touches comes from its analysis (core/shell), not from a declaration
  shell: { effects: ["read", "write", "execute", "network"], paths: [] },
  read_file: { effects: ["read"], paths: [{ arg: "path", access: "read" }] },
  write_file: { effects: ["write"], paths: [{ arg: "path", access: "write" }] },
  edit_file: { effects: ["read", "write"], paths: [{ arg: "path", access: "write" }] },
  list_dir: { effects: ["read"], paths: FOLDER },
  glob: { effects: ["read"], paths: FOLDER },
  grep: { effects: ["read"], paths: [{ ...FOLDER[0]!, contents: true }] },
  // Gemini CLI's save_memory appends the fact to its global context file, read into every later session
  // (the `memory_file` argument is never sent: the default is the file it writes)
  save_memory: { effects: ["write"], paths: [{ arg: "memory_file", access: "write", default: "~/.gemini/GEMINI.md" }] },
  // the agent's own tools change the run's state (its checkpoint), not the machine
  scratchpad: NOTHING,
  ask_user: NOTHING,
  update_plan: NOTHING,
  finish: NOTHING,
}
