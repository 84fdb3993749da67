// Secret-named variables expanded by a command: medium `secret-variable`, which risk.overrides can change
// like any built-in classification; the script's own variables and other names are not.
import { expect, test } from "bun:test"
import { analyzeShell } from "../../core/shell/index.ts"
import { ATTACK_CONTEXT } from "./attacks.ts"

test.each(["echo $GITHUB_TOKEN", "printenv GITHUB_TOKEN", "declare -p GITHUB_TOKEN", "echo ${GITHUB_TOKEN#ghp_}"])("%s is medium, and risk.overrides applies", async (cmd) => {
  const plain = await analyzeShell(cmd, ATTACK_CONTEXT)
  expect(plain.risk).toBe("medium")
  expect(plain.reasons).toContain("uses the secret variable $GITHUB_TOKEN: its value reaches the command's arguments or output")
  const lowered = await analyzeShell(cmd, { ...ATTACK_CONTEXT, overrides: { "secret-variable": "low" } })
  expect(lowered.risk).toBe("low")
})

test.each(["GITHUB_TOKEN=x; echo $GITHUB_TOKEN", "GITHUB_TOKEN=x printenv GITHUB_TOKEN", "echo $HOME $SSH_AUTH_SOCK $GIT_ASKPASS $TOKEN_FILE"])("%s stays safe", async (cmd) => {
  expect((await analyzeShell(cmd, ATTACK_CONTEXT)).risk).toBe("safe")
})
