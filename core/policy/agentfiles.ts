// Claude Code's Agent/Task with a subagent_type defined in a project's or the user's .claude/agents/*.md:
// when that agent starts, the host connects the MCP servers its front matter lists (a stdio server is a
// command line that runs) and registers its hooks, none of it through the PreToolUse hook. Such a
// definition is named in the reason. Side effect: reads (readsafe: regular files only, bounded).
import { readdirSync } from "node:fs"
import { join } from "node:path"
import { readRegular } from "../base/readsafe.ts"
import type { Raised } from "./ondisk.ts"
import { claudeDirs } from "./skillfiles.ts"

const MAX_FILES = 200
// front matter keys that make the host run something when the agent starts
const RUNS = /^(mcpServers|hooks)\s*:/m

/** Why starting the subagent `type` runs more than its prompt (pushed to `raised`). */
export function agentDefinition(type: string, cwd: string, home: string, env: Record<string, string | undefined>, raised: Raised): void {
  let seen = 0
  for (const root of claudeDirs(cwd, home, env)) {
    const dir = join(root, "agents")
    let names: string[]
    try {
      names = readdirSync(dir).filter((n) => n.endsWith(".md"))
    } catch {
      continue
    }
    for (const name of names) {
      if (++seen > MAX_FILES) {
        raised.push({ risk: "medium", reason: `Agent's tool_input.subagent_type ${JSON.stringify(type)}: more than ${MAX_FILES} agent definitions to look through` })
        return
      }
      const file = join(dir, name)
      let text: string
      try {
        text = readRegular(file, 256 << 10)
      } catch {
        continue
      }
      const front = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text)?.[1]
      if (!front) continue
      const declared = /^name\s*:\s*["']?([^"'\r\n]+?)["']?\s*$/m.exec(front)?.[1] ?? name.slice(0, -3)
      if (declared !== type) continue
      const key = RUNS.exec(front)?.[1]
      if (key) raised.push({ risk: "high", reason: `Agent's tool_input.subagent_type ${JSON.stringify(type)} is defined in ${file}, whose ${key} run commands when the agent starts, with no hook call: ccode never sees them` })
    }
  }
}
