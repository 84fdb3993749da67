// Claude Code's Skill tool: loading a skill runs the command blocks of its file (```! ... ``` and !`cmd`)
// with the Bash tool directly, without the PreToolUse hook. The hook's only chance is the Skill call:
// the skill's file is looked up where the host loads it and its command blocks are named. Side effect:
// stats and reads (readsafe: regular files only).
import { statSync } from "node:fs"
import { dirname, join } from "node:path"
import { readRegular } from "../base/readsafe.ts"
import type { Raised } from "./ondisk.ts"
import { pluginSkillFiles } from "./pluginskills.ts"

// the host's own patterns (Claude Code 2.1.x)
const FENCED = /```!\s*\n?([\s\S]*?)\n?```/g
const INLINE = /(?<=^|\s)!`([^`]+)`/gm
const MAX_DIRS = 64

/** Why the skill named `name` is riskier than its Skill call looks (pushed to `raised`). */
export function skillBlocks(name: string, cwd: string, home: string, env: Record<string, string | undefined>, raised: Raised): void {
  const field = `Skill's tool_input.skill ${JSON.stringify(name)}`
  // a name with a path in it: its file is not looked up
  if (!/^[\w.-]+(:[\w.-]+)*$/.test(name) || name.startsWith(".")) {
    raised.push({ risk: "medium", reason: `${field} is not a skill ccode can find on disk: its \`!\` command blocks would run without this hook` })
    return
  }
  const files = candidates(name, cwd, home, env)
  const found = files.filter((f) => statSync(f, { throwIfNoEntry: false }) !== undefined)
  if (!found.length) {
    const plugins = pluginSkillFiles(name, env.CLAUDE_CONFIG_DIR || join(home, ".claude"))
    if (plugins === undefined) {
      raised.push({ risk: "medium", reason: `${field}: the plugins folder is too big to look through for it: its \`!\` command blocks would run without this hook` })
      return
    }
    found.push(...plugins)
  }
  if (!found.length) {
    raised.push({ risk: "medium", reason: `${field}: no skill or command file of that name in .claude/skills, .claude/commands or an installed plugin (a built-in one?): its \`!\` command blocks would run without this hook` })
    return
  }
  for (const file of found) {
    let text: string
    try {
      text = readRegular(file, 1 << 20)
    } catch (error) {
      raised.push({ risk: "high", reason: `${field}: ${file} cannot be read (${(error as { code?: string }).code ?? "error"}): the commands it runs when it loads are not known` })
      continue
    }
    const command = firstCommand(text)
    if (command !== undefined) {
      raised.push({ risk: "high", reason: `${field}: ${file} runs \`${command.slice(0, 120)}\` when it loads (a \`!\` command block), with no hook call: ccode never sees it` })
    }
  }
}

function firstCommand(text: string): string | undefined {
  FENCED.lastIndex = 0
  INLINE.lastIndex = 0
  const fenced = FENCED.exec(text)
  if (fenced) return fenced[1]!.trim() || "(an empty block)"
  const inline = INLINE.exec(text)
  return inline ? inline[1]!.trim() : undefined
}

// .claude/skills/NAME/SKILL.md and .claude/commands/NAME.md (a:b is commands/a/b.md) in the folder the
// host runs in and every folder above it, and in the user's Claude folder
function candidates(name: string, cwd: string, home: string, env: Record<string, string | undefined>): string[] {
  const asPath = name.split(":").join("/")
  return claudeDirs(cwd, home, env).flatMap((r) => [join(r, "skills", asPath, "SKILL.md"), join(r, "commands", `${asPath}.md`), join(r, "skills", `${asPath}.md`)])
}

/** The .claude folders Claude Code loads project and user definitions from: the cwd's and every folder
 *  above it, then the user's (CLAUDE_CONFIG_DIR or ~/.claude). */
export function claudeDirs(cwd: string, home: string, env: Record<string, string | undefined>): string[] {
  const roots: string[] = []
  let dir = cwd
  for (let i = 0; i < MAX_DIRS; i++) {
    roots.push(join(dir, ".claude"))
    const up = dirname(dir)
    if (up === dir) break
    dir = up
  }
  roots.push(env.CLAUDE_CONFIG_DIR || join(home, ".claude"))
  return [...new Set(roots)]
}
