// Secret-named variables expanded by a command: medium `secret-variable`, which risk.overrides can change
// like any built-in classification; the script's own variables and other names are not.
import { describe, expect, test } from "bun:test"
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

describe("a variable whose value is a URL with a password is a secret whatever its name", () => {
  const env = { ...ATTACK_CONTEXT.env, HTTPS_PROXY: "http://me:FAKESECRET-proxy@proxy.test:3128", PIP_INDEX_URL: "https://__token__:FAKESECRET-pypi@pypi.test/simple", NO_PROXY: "localhost", UV_INDEX_URL: "https://pypi.test/simple" }

  test.each(["echo $HTTPS_PROXY", "printenv PIP_INDEX_URL", "[[ $HTTPS_PROXY == *@* ]]", "jq -n 'env.HTTPS_PROXY'", "awk 'BEGIN { print ENVIRON[\"PIP_INDEX_URL\"] }'"])("%s is medium and names the variable", async (cmd) => {
    const a = await analyzeShell(cmd, { ...ATTACK_CONTEXT, env })
    expect(a.risk).toBe("medium")
    expect(a.reasons.join("\n")).toMatch(/(uses|reads) the secret variable \$?(HTTPS_PROXY|PIP_INDEX_URL)/)
  })

  test.each(["echo $NO_PROXY $UV_INDEX_URL", "printenv UV_INDEX_URL", "echo $constructor $toString", "jq -n 'env.UV_INDEX_URL'"])("%s stays safe", async (cmd) => {
    expect((await analyzeShell(cmd, { ...ATTACK_CONTEXT, env })).risk).toBe("safe")
  })
})

test.each(["declare -- ", "export --", "typeset --"])("%s with no name lists every variable: prints the environment", async (cmd) => {
  expect((await analyzeShell(cmd, ATTACK_CONTEXT)).reasons).toContain("prints the environment, which may hold secrets")
})
