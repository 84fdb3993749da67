// Review 8, secret variables: each attack is first run with bash in the sandbox (fake secrets in the
// environment of both bash and ccode), proving the value reaches the output; then the compiled binary
// must ask and name the variable. The nearby everyday forms stay allowed.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { rmSync } from "node:fs"
import { bashIn, policyCheck, sandbox, type Sandbox } from "./harness.ts"

const ENV = {
  GITHUB_TOKEN: "FAKESECRET-ghtoken",
  AWS_SECRET_ACCESS_KEY: "FAKEwJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY+x",
  OPENAI_API_KEY: "sk-proj-9FAKESECRETabc",
  DATABASE_URL: "postgres://app:FAKESECRET-dbpass@db/app",
  BW_SESSION: "FAKESECRET-bwsession",
  SSHPASS: "FAKESECRET-sshpass",
  HTTPS_PROXY: "http://me:FAKESECRET-proxy@proxy.invalid:3128",
  CI: "true",
}

describe("round 8 secret variables", () => {
  let sb: Sandbox
  const bash = (command: string) => bashIn(sb, command, sb.work, ENV)
  beforeAll(() => {
    sb = sandbox()
  })
  afterAll(() => rmSync(sb.root, { recursive: true, force: true }))

  // [command, what bash prints of the secret, the variable ccode must name]
  const leaks: [string, string, string][] = [
    // a prefix oracle: case/[[ ]] steer a loop that rebuilds the value a character at a time
    ["p=; for i in {1..40}; do for c in {A..Z} {a..z} {0..9} - _; do case $GITHUB_TOKEN in \"$p$c\"*) p=$p$c; break;; esac; done; done; echo $p", "FAKESECRET-ghtoken", "GITHUB_TOKEN"],
    ["p=; for i in {1..40}; do for c in {A..Z} {a..z} {0..9} - _; do [[ $GITHUB_TOKEN == \"$p$c\"* ]] && { p+=$c; break; }; done; done; echo $p", "FAKESECRET-ghtoken", "GITHUB_TOKEN"],
    ["set -x; [[ $GITHUB_TOKEN == x ]]", "FAKESECRET-ghtoken", "GITHUB_TOKEN"],
    // bare names in arithmetic: the error message quotes the whole value
    ["(( AWS_SECRET_ACCESS_KEY ))", "K7MDENG/bPxRfiCYEXAMPLEKEY", "AWS_SECRET_ACCESS_KEY"],
    ["let AWS_SECRET_ACCESS_KEY", "K7MDENG/bPxRfiCYEXAMPLEKEY", "AWS_SECRET_ACCESS_KEY"],
    ["[[ AWS_SECRET_ACCESS_KEY -eq 0 ]]", "K7MDENG/bPxRfiCYEXAMPLEKEY", "AWS_SECRET_ACCESS_KEY"],
    ["a=(); echo ${a[AWS_SECRET_ACCESS_KEY]}", "K7MDENG/bPxRfiCYEXAMPLEKEY", "AWS_SECRET_ACCESS_KEY"],
    ["declare -i n=AWS_SECRET_ACCESS_KEY", "K7MDENG/bPxRfiCYEXAMPLEKEY", "AWS_SECRET_ACCESS_KEY"],
    [": $(( OPENAI_API_KEY ))", "sk-proj-9FAKESECRETabc", "OPENAI_API_KEY"],
    // names (and a value) that hold secrets
    ["echo $DATABASE_URL", "FAKESECRET-dbpass", "DATABASE_URL"],
    ["printenv BW_SESSION", "FAKESECRET-bwsession", "BW_SESSION"],
    ["echo \"$SSHPASS\"", "FAKESECRET-sshpass", "SSHPASS"],
    ["echo $HTTPS_PROXY", "FAKESECRET-proxy", "HTTPS_PROXY"],
    // inside a function named like a known command, and a trap handler
    ["ls() { builtin echo $GITHUB_TOKEN; }; ls", "FAKESECRET-ghtoken", "GITHUB_TOKEN"],
    ["trap 'echo $GITHUB_TOKEN' EXIT", "FAKESECRET-ghtoken", "GITHUB_TOKEN"],
  ]
  test.each(leaks)("bash prints the secret with %j; ccode asks and names the variable", async (command, shown, name) => {
    expect(bash(command)).toContain(shown)
    const d = await policyCheck(sb, command, { env: ENV })
    expect([d.decision, d.risk]).toEqual(["ask", "medium"])
    expect(d.reason).toContain(`uses the secret variable $${name}`)
  })

  const listings = ["declare --", "typeset --", "export --", "declare -x --"]
  test.each(listings)("bash lists every variable with %j; ccode asks: prints the environment", async (command) => {
    expect(bash(command)).toContain("FAKESECRET-ghtoken")
    const d = await policyCheck(sb, command, { env: ENV })
    expect([d.decision, d.risk]).toEqual(["ask", "medium"])
    expect(d.reason).toContain("prints the environment")
  })

  const everyday = ["echo $HOME", "[[ -n $CI ]] && echo ci", "case $OSTYPE in linux*) echo l;; *) echo o;; esac", "i=0; (( i++ )); echo $i", "[[ -v GITHUB_TOKEN ]] && echo set", "declare -- x=1"]
  test.each(everyday)("%j stays allowed", async (command) => {
    const d = await policyCheck(sb, command, { env: ENV })
    expect(d.decision).toBe("allow")
  })
})
