// Where an installed Claude Code plugin keeps a skill or command (`plugin:skill`, or a bare name a plugin
// provides): below the user's Claude folder's plugins/ (cache/MARKETPLACE/PLUGIN/VERSION/skills/NAME/SKILL.md,
// marketplaces/.../plugins/PLUGIN/commands/NAME.md). A bounded walk; links are not followed. Side effect: readdir.
import { readdirSync } from "node:fs"
import { join } from "node:path"

const MAX_DEPTH = 8
const MAX_ENTRIES = 20_000

/** The plugin files that define `name`; undefined when the plugins folder is too big to look through. */
export function pluginSkillFiles(name: string, claudeHome: string): string[] | undefined {
  const parts = name.split(":")
  const skill = parts.at(-1)!
  const plugin = parts.length > 1 ? parts.slice(0, -1).join("/") : undefined
  const found: string[] = []
  let entries = 0
  const stack: [string, number][] = [[join(claudeHome, "plugins"), 0]]
  while (stack.length) {
    const [dir, depth] = stack.pop()!
    let list
    try {
      list = readdirSync(dir, { withFileTypes: true })
    } catch {
      continue
    }
    entries += list.length
    if (entries > MAX_ENTRIES) return undefined
    for (const e of list) {
      const full = join(dir, e.name)
      if (e.isDirectory()) {
        if (depth < MAX_DEPTH && e.name !== "node_modules" && e.name !== ".git") stack.push([full, depth + 1])
      } else if (e.isFile() && defines(full, skill, plugin)) {
        found.push(full)
      }
    }
  }
  return found
}

function defines(file: string, skill: string, plugin: string | undefined): boolean {
  const isSkill = file.endsWith(`/skills/${skill}/SKILL.md`) || file.endsWith(`/commands/${skill}.md`) || file.endsWith(`/skills/${skill}.md`)
  return isSkill && (plugin === undefined || file.includes(`/${plugin}/`))
}
