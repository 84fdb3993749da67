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

// a signed token, a key file's or a kubeconfig's text: secret by the value (which ccode has: the env is
// passed to it), and the names that say they hold one even when the value is not known
describe("JWTs, key files, kubeconfigs and PEM bodies are secrets by their value and by the names that hold them", () => {
  const env = {
    ...ATTACK_CONTEXT.env,
    CI_JOB_JWT: "eyJhbGciOiJSUzI1NiJ9.FAKESECRET-jwt.sig",
    ID_TOKEN_GL: "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln",
    GOOGLE_CREDENTIALS_JSON: '{"type":"service_account","private_key":"-----BEGIN PRIVATE KEY-----\\nFAKESECRET-pem\\n-----END PRIVATE KEY-----\\n"}',
    KUBE_CONFIG: "apiVersion: v1\nusers:\n- name: ci\n  user:\n    token: FAKESECRET-kube\n",
    DEPLOY_BLOB: "-----BEGIN OPENSSH PRIVATE KEY-----\nFAKESECRET\n-----END OPENSSH PRIVATE KEY-----",
    SETTINGS: '{"registry":"x","auth":"ZmFrZTpGQUtF"}',
    LOGIN_FILE: "machine h login u password FAKESECRET-netrc",
    KUBECONFIG: "/home/dev/.kube/config",
    CI_JOB_NAME: "build",
    JSON_OPTS: '{"indent":2,"sort":true}',
  }
  test.each([
    "echo $CI_JOB_JWT", "declare -p CI_JOB_JWT", "printenv GOOGLE_CREDENTIALS_JSON", 'echo "$KUBE_CONFIG"', "echo $ID_TOKEN_GL",
    "printenv DEPLOY_BLOB", "echo $SETTINGS", "echo $LOGIN_FILE",
  ])("%s is medium", async (cmd) => {
    const a = await analyzeShell(cmd, { ...ATTACK_CONTEXT, env })
    expect(a.risk).toBe("medium")
    expect(a.reasons.join("\n")).toMatch(/secret variable/)
  })
  test.each(["CI_JOB_JWT_V2", "GCP_SA_JSON", "SERVICE_ACCOUNT_JSON", "KUBECONFIG_DATA", "FIREBASE_SERVICE_ACCOUNT", "KEYSTORE_BASE64", "SIGNING_CERT_P12", "TOTP_SEED", "NETRC", "GITHUB_APP_PEM", "DOCKER_CONFIG_JSON", "NPM_RC", "PYPIRC"])("echo $%s (value not known) is medium", async (name) => {
    expect((await analyzeShell(`echo $${name}`, ATTACK_CONTEXT)).risk).toBe("medium")
  })
  test.each(["echo $KUBECONFIG $CI_JOB_NAME $JSON_OPTS", "printenv KUBECONFIG", "echo $KEYSTORE_PATH $CI_JOB_ID"])("%s stays safe", async (cmd) => {
    expect((await analyzeShell(cmd, { ...ATTACK_CONTEXT, env })).risk).toBe("safe")
  })
})
