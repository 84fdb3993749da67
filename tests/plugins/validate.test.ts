// What a plugin may export: tools made with defineTool and beforeCall/afterCall hooks; anything else is
// reported with the export's name and the reason, and a tool's user code is wrapped so it cannot crash ccode.
import { describe, expect, test } from "bun:test"
import { z } from "zod"
import { checkTool, pluginExports, toOutput } from "../../core/plugins/validate.ts"
import type { Tool } from "../../core/tools/types.ts"

const base = { name: "lookup", description: "Look something up", args: z.object({ key: z.string() }), run: async () => ({ text: "ok" }) }

describe("plugin exports", () => {
  test("a default export and named exports are each a tool", () => {
    const found = pluginExports({ default: base, other: { ...base, name: "other_tool" } }, "/p/x.ts")
    expect(found.tools.map((t) => t.name)).toEqual(["lookup", "other_tool"])
    expect(found.problems).toEqual([])
    expect(found.hooks).toBeUndefined()
  })

  test("the same tool exported twice (default and named) counts once", () => {
    const found = pluginExports({ default: base, lookup: base }, "/p/x.ts")
    expect(found.tools.map((t) => t.name)).toEqual(["lookup"])
  })

  test("two different tools with one name are left out and reported", () => {
    const found = pluginExports({ a: base, b: { ...base } }, "/p/x.ts")
    expect(found.tools).toEqual([])
    expect(found.problems).toEqual(['defines the tool "lookup" 2 times'])
  })

  test("every export that is neither a tool nor a hook is named with its reason", () => {
    const found = pluginExports(
      {
        default: 42,
        helper: () => 1,
        badName: { ...base, name: "Bad-Name" },
        noDescription: { ...base, name: "no_desc", description: " " },
        notZod: { ...base, name: "not_zod", args: { key: "string" } },
        notObject: { ...base, name: "not_object", args: z.string() },
        badRisk: { ...base, name: "bad_risk", risk: "extreme" },
        badTimeout: { ...base, name: "bad_timeout", timeout: "soon" },
        noRun: { name: "no_run", description: "x", args: z.object({}) },
        beforeCall: "not a function",
      },
      "/p/x.ts",
    )
    expect(found.tools).toEqual([])
    expect(found.problems).toEqual([
      "export default: is number, not a tool made with defineTool({...})",
      "export helper: is function, not a tool made with defineTool({...})",
      'export badName: tool name "Bad-Name" must be snake_case: lowercase letters, digits and _ (at most 64)',
      'export noDescription: tool "no_desc" has no description',
      'export notZod: tool "not_zod": args must be a zod schema, e.g. z.object({ path: z.string() })',
      'export notObject: tool "not_object": args must be an object schema: z.object({...})',
      'export badRisk: tool "bad_risk": risk must be one of safe, low, medium, high, critical or a function of the arguments, got "extreme"',
      'export badTimeout: tool "bad_timeout": timeout must be a duration like "30s" or milliseconds, got "soon"',
      'export noRun: tool "no_run" has no run(args, ctx) function',
      "export beforeCall must be a function (a hook)",
    ])
  })

  test("a file that exports nothing usable says how to export a tool", () => {
    expect(pluginExports({}, "/p/x.ts").problems).toEqual(['exports no tool: `export default defineTool({...})` from "ccode/plugin"'])
  })

  test("hooks are found as named exports or as a default export of hook functions", () => {
    const beforeCall = () => undefined
    const afterCall = () => undefined
    expect(pluginExports({ beforeCall, afterCall }, "/p/h.ts").hooks).toEqual({ source: "/p/h.ts", beforeCall, afterCall })
    expect(pluginExports({ default: { beforeCall } }, "/p/h.ts").hooks).toEqual({ source: "/p/h.ts", beforeCall })
  })
})

describe("a plugin tool's own code is wrapped", () => {
  const wrap = (extra: Partial<Tool>) => checkTool({ ...base, ...extra }) as Tool

  test("a computed risk sees the arguments with defaults filled in", () => {
    const seen: unknown[] = []
    const tool = wrap({
      args: z.object({ method: z.enum(["GET", "POST"]).default("GET") }),
      risk: (args: { method: string }) => (seen.push(args), args.method === "GET" ? "low" : "medium"),
    })
    const risk = tool.risk as (args: unknown, ctx: { cwd: string; workspace: string }) => string
    expect(risk({}, { cwd: "/", workspace: "/" })).toBe("low")
    expect(risk({ method: "POST" }, { cwd: "/", workspace: "/" })).toBe("medium")
    expect(seen).toEqual([{ method: "GET" }, { method: "POST" }])
  })

  test("a computed risk that answers nonsense counts as high", () => {
    const tool = wrap({ risk: () => "whatever" as never })
    expect((tool.risk as (a: unknown, c: unknown) => string)({ key: "x" }, {})).toBe("high")
  })

  test("whatever run() returns becomes a ToolOutput", () => {
    expect(toOutput(undefined)).toEqual({ text: "" })
    expect(toOutput("plain")).toEqual({ text: "plain" })
    expect(toOutput([1, 2])).toEqual({ text: "[1,2]", data: [1, 2] })
    expect(toOutput({ rows: 3 })).toEqual({ text: '{"rows":3}', data: { rows: 3 } })
    expect(toOutput({ text: "t", data: 1 })).toEqual({ text: "t", data: 1, error: undefined })
    expect(toOutput({ error: "went wrong" })).toEqual({ text: undefined, data: undefined, error: { message: "went wrong" } })
  })

  test("run() returning a string still produces text", async () => {
    const tool = wrap({ run: (async () => "hi") as unknown as Tool["run"] })
    expect(await tool.run({ key: "k" }, {} as never)).toEqual({ text: "hi" })
  })
})
