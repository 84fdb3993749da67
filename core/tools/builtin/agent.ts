// Tools only an agent run offers: scratchpad, ask_user, update_plan, finish.
// Their run() only checks and echoes: the agent driver applies what they mean to the run's state.
import { z } from "zod"
import { defineTool, ToolFailure, type Tool } from "../types.ts"
import { BUILTIN_DECLARATIONS } from "./declarations.ts"

/** The agent's notes, kept in the run's checkpoint. */
export interface Scratchpad {
  task: string
  todo: string
}

const MAX_TASK_LINES = 10
const TODO_LINE = /^\s*- \[( |x|X)\] \S/

export const PLAN_STATUSES = ["pending", "in_progress", "active", "completed", "done", "failed", "skipped", "blocked"] as const

const ScratchpadArgs = z.strictObject({
  action: z.enum(["read", "update"]),
  section: z.enum(["task", "todo"]).optional().describe("update: which section to rewrite"),
  content: z.string().optional().describe("update: the section's new text (task: at most 10 lines; todo: every line `- [ ] ...` or `- [x] ...`)"),
})

/** The scratchpad bound to one run's state: reads it, and rewrites a section in place. */
export function scratchpadTool(pad: () => Scratchpad = () => ({ task: "", todo: "" })): Tool<z.infer<typeof ScratchpadArgs>> {
  return defineTool({
    name: "scratchpad",
    description:
      "Your notes for this run, kept across turns and resumes. action=read returns them; action=update rewrites one section " +
      "(task: what you are doing, at most 10 lines; todo: a checklist, every line `- [ ] item` or `- [x] item`).",
    args: ScratchpadArgs,
    risk: "safe",
    idempotent: true,
    ...BUILTIN_DECLARATIONS.scratchpad,
    async run(args) {
      const current = pad()
      if (args.action === "read") return { text: renderScratchpad(current) }
      if (!args.section || args.content === undefined) throw new ToolFailure("INVALID_PARAM", "param", "update needs `section` (task or todo) and `content`")
      const problem = checkScratchpad(args.section, args.content)
      if (problem) throw new ToolFailure("INVALID_PARAM", "param", problem)
      current[args.section] = args.content.trimEnd()
      return { text: "OK" }
    },
  })
}

export const askUserTool = defineTool({
  name: "ask_user",
  description:
    "Ask the person running ccode 1 to 3 questions and wait for the answer. Use it only when you cannot go on without them. " +
    "format=single|multi with options offers choices.",
  args: z.strictObject({
    questions: z.array(z.string().min(1)).min(1).max(3),
    format: z.enum(["single", "multi"]).optional(),
    options: z.array(z.string().min(1)).optional(),
  }),
  risk: "safe",
  idempotent: true,
  ...BUILTIN_DECLARATIONS.ask_user,
  async run(args) {
    return { text: `asking: ${args.questions.join(" / ")}` }
  },
})

export const updatePlanTool = defineTool({
  name: "update_plan",
  description:
    "Record your plan: the whole list of items, each {id, title, status}. Status: pending, in_progress, completed, failed, skipped or blocked. " +
    "Send the full list every time; items you leave out are marked skipped.",
  args: z.strictObject({
    items: z
      .array(z.strictObject({ id: z.string().min(1), title: z.string().min(1), status: z.enum(PLAN_STATUSES) }))
      .min(1)
      .max(50),
  }),
  risk: "safe",
  idempotent: true,
  ...BUILTIN_DECLARATIONS.update_plan,
  async run(args) {
    const ids = new Set<string>()
    for (const item of args.items) {
      if (ids.has(item.id)) throw new ToolFailure("INVALID_PARAM", "param", `duplicate plan item id "${item.id}"`)
      ids.add(item.id)
    }
    const done = args.items.filter((i) => i.status === "completed" || i.status === "done").length
    return { text: `plan updated: ${args.items.length} items, ${done} done` }
  },
})

export const finishTool = defineTool({
  name: "finish",
  description: "End the run: success=true when the goal is reached, false when you give up; summary says what was done or why not.",
  args: z.strictObject({ success: z.boolean(), summary: z.string().min(1) }),
  risk: "safe",
  idempotent: true,
  ...BUILTIN_DECLARATIONS.finish,
  async run(args) {
    return { text: `finished: ${args.success ? "success" : "failure"}` }
  },
})

/** The agent-only tools with their static definitions (schemas for validation and the model). */
export const AGENT_TOOLS: Tool[] = [scratchpadTool(), askUserTool, updatePlanTool, finishTool]
export const AGENT_TOOL_NAMES = AGENT_TOOLS.map((t) => t.name)

/** Why a section's new content is refused, or undefined when it is fine. Pure. */
export function checkScratchpad(section: "task" | "todo", content: string): string | undefined {
  const lines = content.trimEnd().split("\n")
  if (section === "task" && lines.length > MAX_TASK_LINES) return `the task section holds at most ${MAX_TASK_LINES} lines (got ${lines.length}); keep it short`
  if (section === "todo" && content.trim()) {
    const bad = lines.findIndex((l) => !TODO_LINE.test(l))
    if (bad >= 0) return `todo line ${bad + 1} is not a checklist item (\`- [ ] ...\` or \`- [x] ...\`): ${lines[bad]}`
  }
  return undefined
}

export function renderScratchpad(pad: Scratchpad): string {
  return `## task\n${pad.task || "(empty)"}\n\n## todo\n${pad.todo || "(empty)"}\n`
}
