// The shell engineer's corpus, decided by the real policy engine with the bundled policies: every
// entry must reach its `default` and `strict` decision through decide(), not through a model of it.
import { describe, expect, test } from "bun:test"
import { analyzeShell } from "../../core/shell/index.ts"
import { decide } from "../../core/policy/decide.ts"
import { bundledPolicy } from "../../core/policy/bundled.ts"
import type { Call } from "../../core/policy/types.ts"
import { CORPUS, CORPUS_CONTEXT } from "../shell/corpus.ts"

const policies = { default: bundledPolicy("default"), strict: bundledPolicy("strict") }

async function call(command: string): Promise<Call> {
  const shell = await analyzeShell(command, { ...CORPUS_CONTEXT, overrides: policies.default.risk.overrides })
  const { cwd, workspace, home } = CORPUS_CONTEXT
  return { tool: "shell", args: { command }, cwd, workspace, home, tmpDirs: ["/tmp"], shell, paths: shell.paths }
}

describe("the shell corpus under the bundled policies", () => {
  test("every entry gets its default and strict decision", async () => {
    const wrong: string[] = []
    for (const entry of CORPUS) {
      const c = await call(entry.cmd)
      const got = { default: decide(policies.default, c, { grants: [] }), strict: decide(policies.strict, c, { grants: [] }) }
      if (got.default.decision !== entry.default || got.strict.decision !== entry.strict) {
        wrong.push(`${JSON.stringify(entry.cmd)}: want ${entry.default}/${entry.strict}, got ${got.default.decision}/${got.strict.decision} (${got.default.risk}: ${got.default.reason})`)
      }
    }
    expect(CORPUS.length).toBeGreaterThan(300)
    expect(wrong).toEqual([])
  })
})
