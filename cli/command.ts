// A ccode command: citty's command definition plus examples for --help and the global flags.
import { defineCommand, type ArgsDef, type CommandDef } from "citty"

export type CcodeCommand<T extends ArgsDef = ArgsDef> = CommandDef<T> & { examples?: string[] }

export function command<const T extends ArgsDef>(def: CommandDef<T> & { examples?: string[] }): CcodeCommand<T> {
  return defineCommand(def) as CcodeCommand<T>
}
