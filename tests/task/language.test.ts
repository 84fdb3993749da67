// Loading the task language: inputs, if:, ${{ }}, env and working_directory are checked at load,
// every problem with its file:line:col; and the $CCODE_OUTPUT file format.
import { afterAll, describe, expect, test } from "bun:test"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { resolveInputs, parseVarFlags } from "../../core/task/inputs.ts"
import { loadTask } from "../../core/task/load.ts"
import { ConfigError, parseYaml } from "../../core/base/yaml.ts"
import { parseOutputFile, outputsOfData } from "../../core/runner/step-output.ts"

const dirs: string[] = []
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })))

function taskFile(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), "ccode-lang-"))
  dirs.push(dir)
  const file = join(dir, "task.yaml")
  writeFileSync(file, text)
  return file
}

function problem(text: string): string {
  try {
    loadTask(taskFile(text))
  } catch (error) {
    if (error instanceof ConfigError) return `${error.line}:${error.col} ${error.problem}`
    throw error
  }
  throw new Error("expected a ConfigError")
}

describe("the task language at load", () => {
  test("a plain task loads as before: no if, env or working directory", () => {
    const task = loadTask(taskFile("steps:\n  - run: echo hi\n"))
    expect(task.steps[0]).toEqual({ id: "step-1", title: "echo hi", tool: "shell", args: { command: "echo hi" }, needs: [], retries: undefined, timeout: undefined, breakpoint: false, continueOnError: false, index: 0 })
  })

  test("a step reading another's outputs comes to need it; an if: is kept as written", () => {
    const task = loadTask(taskFile([
      "inputs: { env: { default: dev } }", "steps:",
      "  - id: a", "    run: echo a", "  - id: b", "    run: echo ${{ steps.a.outputs.v }} ${{ inputs.env }}",
      "  - id: c", "    if: failure() || steps.b.outcome == 'skipped'", "    run: echo c", "    env: { X: '${{ inputs.env }}' }", "    working_directory: sub",
    ].join("\n")))
    expect(task.steps.map((s) => [s.id, s.needs, s.if ?? null])).toEqual([["a", [], null], ["b", ["a"], null], ["c", ["b"], "failure() || steps.b.outcome == 'skipped'"]])
    expect(task.steps[2]!.env).toEqual({ X: "${{ inputs.env }}" })
    expect(task.steps[2]!.workingDirectory).toBe("sub")
  })

  const bad: [string, string, RegExp][] = [
    ["an unknown input", "steps:\n  - run: echo ${{ inputs.nope }}\n", /^2:5 step "step-1" `\$\{\{ \}\}`: unknown input "nope"/],
    ["a later step", "steps:\n  - id: a\n    run: echo ${{ steps.b.outputs.x }}\n  - id: b\n    run: echo\n", /^3:5 .*steps\.b is not an earlier step/],
    ["an unknown step field", "steps:\n  - id: a\n    run: echo\n  - if: steps.a.exit == 0\n    run: echo\n", /^4:5 .*steps\.a\.exit: a step has outputs, outcome, state/],
    ["a malformed if", "steps:\n  - run: echo\n    if: \"(success() && \"\n", /^3:5 step "step-1" if: expected a value but found end of expression \(at character 15/],
    ["code in an if", "steps:\n  - run: echo\n    if: system('id')\n", /^3:5 .*unknown function 'system'/],
    ["an unclosed template", "steps:\n  - tool: write_file\n    with: { path: x, content: 'a ${{ inputs.x' }\n", /^3:22 .*without a closing/],
    ["an absolute working directory", "steps:\n  - run: pwd\n    working_directory: /etc\n", /^3:5 .*must be relative/],
    ["a .. working directory", "steps:\n  - run: pwd\n    working_directory: a/../../x\n", /^3:5 .*may not use "\.\."/],
    ["a working directory on a file tool", "steps:\n  - tool: read_file\n    with: { path: x }\n    working_directory: a\n", /^4:5 .*applies to shell steps/],
    ["a working directory on a preview step", "steps:\n  - run: pwd\n    preview: true\n    working_directory: a\n", /^4:5 .*cannot be combined with preview/],
    ["a bad env name", "steps:\n  - run: echo\n    env: { 'A B': x }\n", /^3:12 .*env\.A B: Invalid key/],
    ["an agent goal reading a step", "agent:\n  provider: replay\n  script: t.yaml\n  goal: fix ${{ steps.a.outputs.x }}\n", /^4:3 agent\.goal: "steps\.a\.outputs\.x": an agent's goal reads only inputs\.NAME/],
    ["an agent goal reading an undeclared input", "agent:\n  provider: replay\n  script: t.yaml\n  goal: fix ${{ inputs.x }}\n", /^4:3 agent\.goal: unknown input "x"/],
    ["a bad input key", "inputs: { x: { defualt: 1 } }\nsteps:\n  - run: echo\n", /^1:16 .*defualt/],
  ]
  for (const [what, text, expected] of bad) {
    test(`${what} is exit 2 with its position`, () => {
      expect(problem(text)).toMatch(expected)
    })
  }
})

describe("input values", () => {
  const file = "t.yaml"
  const source = () => parseYaml("inputs:\n  who: { required: true }\n  greeting: { default: hi }\n", file)
  const declared = { who: { required: true }, greeting: { default: "hi" } }

  test("--var over CCODE_VAR_ over the default", () => {
    expect(resolveInputs(file, declared, { who: "a" }, { CCODE_VAR_who: "b", CCODE_VAR_greeting: "yo" }, source)).toEqual({ who: "a", greeting: "yo" })
    expect(resolveInputs(file, declared, {}, { CCODE_VAR_who: "b" }, source)).toEqual({ who: "b", greeting: "hi" })
  })

  test("a missing required input points at its declaration; an unknown --var names the flag", () => {
    expect(() => resolveInputs(file, declared, {}, {}, source)).toThrow('input "who" is required: give it with --var who=VALUE or CCODE_VAR_who')
    try {
      resolveInputs(file, declared, {}, {}, source)
    } catch (error) {
      expect([(error as ConfigError).line, (error as ConfigError).col]).toEqual([2, 3])
    }
    expect(() => resolveInputs(file, declared, { who: "a", whom: "b" }, {}, source)).toThrow('--var whom: t.yaml has no input "whom" (its inputs: who, greeting)')
    expect(() => parseVarFlags(["noequals"])).toThrow('--var takes name=value, got "noequals"')
    expect(parseVarFlags(["a=1=2", "a=3", "b="])).toEqual({ a: "3", b: "" })
  })
})

describe("the $CCODE_OUTPUT file", () => {
  test("key=value lines and key<<DELIM blocks; the last write of a key wins", () => {
    expect(parseOutputFile("a=1\nb=x=y\n\nmsg<<EOF\nline 1\nline=2\nEOF\na=2\r\n")).toEqual({ a: "2", b: "x=y", msg: "line 1\nline=2" })
  })

  test("malformed files are refused with the line", () => {
    expect(() => parseOutputFile("just text\n")).toThrow("$CCODE_OUTPUT line 1: expected key=value or key<<DELIMITER")
    expect(() => parseOutputFile("x<<END\nnever closed\n")).toThrow('"x<<END" has no closing "END" line')
    expect(() => parseOutputFile("bad key=1\n")).toThrow('"bad key" is not a valid output name')
    // names that mean something to JavaScript objects are plain keys
    const odd = parseOutputFile("__proto__=1\nconstructor=2\n")
    expect([Object.hasOwn(odd, "__proto__"), odd["__proto__"], odd.constructor]).toEqual([true, "1", "2"])
  })

  test("a plugin's structured result: top-level fields, objects as JSON", () => {
    expect(outputsOfData({ id: 7, ok: true, name: "x", nested: { a: 1 }, "bad key": 1 })).toEqual({ id: "7", ok: "true", name: "x", nested: '{"a":1}' })
    expect(outputsOfData([1, 2])).toEqual({})
  })
})
