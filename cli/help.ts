// --help of a command group (runs, audit, plugins, policy): its subcommands, one line each.
import type { CcodeCommand } from "./command.ts"

export async function groupUsage(cmd: CcodeCommand, name: string): Promise<string> {
  const meta = (await resolve(cmd.meta)) ?? {}
  const subs = (await resolve(cmd.subCommands)) ?? {}
  const fallback = await resolve(cmd.default)
  const entries: [string, string][] = []
  for (const [sub, def] of Object.entries(subs)) {
    const subMeta = (await resolve((await resolve(def as CcodeCommand))?.meta)) ?? {}
    entries.push([sub, `${subMeta.description ?? ""}${sub === fallback ? ` (the default: \`ccode ${name}\` alone)` : ""}`])
  }
  const width = Math.max(...entries.map(([n]) => n.length))
  const lines = [
    `${meta.description ?? ""} (ccode ${name})`,
    "",
    `USAGE  ccode ${name} <subcommand> [options]`,
    "",
    "SUBCOMMANDS",
    ...entries.map(([n, d]) => `  ${n.padEnd(width)}  ${d}`),
  ]
  if (cmd.examples?.length) lines.push("", "EXAMPLES", ...cmd.examples.map((e) => `  ${e}`))
  lines.push("", `Run \`ccode ${name} <subcommand> --help\` for its options.`)
  return lines.join("\n")
}

async function resolve<T>(value: T | Promise<T> | (() => T | Promise<T>) | undefined): Promise<T | undefined> {
  return typeof value === "function" ? await (value as () => T | Promise<T>)() : await value
}
