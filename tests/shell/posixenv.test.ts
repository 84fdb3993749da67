// POSIXLY_CORRECT inherited from the environment starts bash in posix mode: an alias definition, NAME=v
// before a special builtin and a quote inside "${…}" are read otherwise there, so they ask high; the same
// commands without the variable are judged as bash's default mode reads them.
import { expect, test } from "bun:test"
import { analyzeShell } from "../../core/shell/index.ts"
import { ATTACK_CONTEXT } from "./attacks.ts"

const posixEnv = { ...ATTACK_CONTEXT.env, POSIXLY_CORRECT: "1" }
const P = `echo "\${x:-'}"'}" ' ; cat ~/.netrc ; echo ' #'`

test.each(["alias echo=cat\necho /root/.ne\"\"trc", "f=a.txt\nf=/root/.netrc :\ncat \"$f\"", P, `bash -c '${P.replaceAll("'", `'"'"'`)}'`])("with POSIXLY_CORRECT inherited, %s asks high", async (cmd) => {
  const a = await analyzeShell(cmd, { ...ATTACK_CONTEXT, env: posixEnv })
  expect(a.risk).toBe("high")
  expect(a.reasons.join("\n")).toContain("POSIXLY_CORRECT is set in the environment")
})

test.each(["ls -la", "echo \"${HOME:-/tmp}\"", "git status"])("with POSIXLY_CORRECT inherited, %s stays safe", async (cmd) => {
  expect((await analyzeShell(cmd, { ...ATTACK_CONTEXT, env: posixEnv })).risk).toBe("safe")
})

test("without it, the quote inside ${…} is read as bash reads it", async () => {
  expect((await analyzeShell(P, ATTACK_CONTEXT)).risk).toBe("safe")
})
