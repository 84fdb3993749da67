// The `if:` expression language: what it accepts, what it refuses, and that hostile input stays bounded.
import { describe, expect, test } from "bun:test"
import { evaluate, ExprError, MAX_EXPRESSION_LENGTH, MAX_NESTING, parseExpression, type Scope, type Value } from "../../core/task/expr.ts"
import { substitute, templatesIn } from "../../core/task/template.ts"

const values: Record<string, Value> = {
  "inputs.env": "prod", "inputs.count": "12", "inputs.empty": "", "steps.build.outputs.version": "1.10.0",
  "steps.build.outcome": "success", "steps.lint.outcome": "failure",
}
const scope = (failed = false): Scope => ({ failed, ref: (path) => values[path.join(".")] ?? null })
const run = (text: string, failed = false) => evaluate(parseExpression(text), scope(failed))

describe("expressions", () => {
  test("comparisons, logic, parentheses and literals evaluate as written", () => {
    expect(run("inputs.env == 'prod'")).toBe(true)
    expect(run("inputs.env != \"prod\"")).toBe(false)
    expect(run("inputs.count > 9")).toBe(true) // numbers when both sides read as numbers
    expect(run("inputs.count >= 12 && inputs.count <= 12")).toBe(true)
    expect(run("inputs.count < 2.5")).toBe(false)
    expect(run("'12' > '9'")).toBe(true) // two strings that read as numbers compare as numbers (outputs are text)
    expect(run("'abc' < 'abd'")).toBe(true)
    expect(run("!(inputs.env == 'prod') || steps.build.outcome == 'success'")).toBe(true)
    expect(run("true && !false")).toBe(true)
    expect(run("null == ''")).toBe(true)
    expect(run("inputs.missing")).toBe(null)
    expect(run("inputs.empty || 'fallback'")).toBe(true) // && and || give booleans
    expect(run("inputs.empty")).toBe("")
    expect(run("-3 < -2")).toBe(true)
    expect(run("'it''s' == \"it's\"")).toBe(true)
  })

  test("success(), failure() and always() read the run's failures", () => {
    expect([run("success()"), run("failure()"), run("always()")]).toEqual([true, false, true])
    expect([run("success()", true), run("failure()", true), run("always()", true)]).toEqual([false, true, true])
    expect(run("failure() && steps.lint.outcome == 'failure'", true)).toBe(true)
  })

  test("&& and || short-circuit and bind && tighter", () => {
    expect(run("true || false && false")).toBe(true)
    expect(run("(true || false) && false")).toBe(false)
  })

  const malformed: [string, RegExp][] = [
    ["", /expected a value but found end of expression/],
    ["inputs.env ==", /expected a value/],
    ["(inputs.env == 'prod'", /expected '\)'/],
    ["inputs.env == 'prod", /unterminated string/],
    ["a == b == c", /do not chain/],
    ["exec('rm -rf /')", /unknown function 'exec'/],
    ["success(1)", /takes no arguments/],
    ["inputs.", /expected a name after '\.'/],
    ["inputs.env = 'x'", /unexpected character '='/],
    ["1 + 2", /unexpected character '\+'/],
    ["`id`", /unexpected character '`'/],
    ["$(id)", /unexpected character '\$'/],
    ["inputs.env 'x'", /unexpected string/],
  ]
  for (const [text, problem] of malformed) {
    test(`refuses ${JSON.stringify(text)}`, () => {
      expect(() => parseExpression(text)).toThrow(problem)
    })
  }

  test("a parse error carries the offset of the problem", () => {
    try {
      parseExpression("inputs.a && ) ")
      throw new Error("parsed")
    } catch (error) {
      expect(error).toBeInstanceOf(ExprError)
      expect((error as ExprError).offset).toBe(12)
    }
  })

  test("hostile input stays bounded: deep nesting, long input, many tokens", () => {
    const deep = `${"(".repeat(MAX_NESTING + 1)}true${")".repeat(MAX_NESTING + 1)}`
    expect(() => parseExpression(deep)).toThrow(/nested deeper than/)
    expect(() => parseExpression(`${"!".repeat(MAX_NESTING + 1)}true`)).toThrow(/nested deeper than/)
    expect(run(`${"(".repeat(MAX_NESTING - 1)}true${")".repeat(MAX_NESTING - 1)}`)).toBe(true)
    // a million open parentheses is refused by length before any recursion
    expect(() => parseExpression("(".repeat(1_000_000))).toThrow(/longer than/)
    expect(() => parseExpression(`'${"x".repeat(MAX_EXPRESSION_LENGTH)}'`)).toThrow(/longer than/)
    expect(() => parseExpression(Array.from({ length: 400 }, () => "true").join(" && "))).toThrow(/more than 512 tokens/)
    const started = performance.now()
    for (let i = 0; i < 200; i++) expect(() => parseExpression(`'${"a".repeat(4000)}`)).toThrow(/unterminated/)
    expect(performance.now() - started).toBeLessThan(5_000)
  })
})

describe("templates", () => {
  test("${{ }} is replaced by its value; text around it stays", () => {
    expect(substitute("deploy ${{ inputs.env }} v${{ steps.build.outputs.version }}${{ inputs.missing }}!", scope())).toBe("deploy prod v1.10.0!")
    expect(substitute("no templates here ${ { x } }", scope())).toBe("no templates here ${ { x } }")
  })

  test("an unclosed or broken template is an error at its offset", () => {
    expect(() => templatesIn("echo ${{ inputs.env")).toThrow(/without a closing/)
    try {
      templatesIn("echo ${{ inputs.env == }}")
      throw new Error("parsed")
    } catch (error) {
      expect((error as ExprError).offset).toBe(23)
    }
  })

  test("a value is substituted as text, never evaluated again", () => {
    const tricky: Scope = { failed: false, ref: () => "${{ inputs.env }}" }
    expect(substitute("x=${{ inputs.a }}", tricky)).toBe("x=${{ inputs.env }}")
  })
})
