// Values that are secrets by their shape (vendor token prefixes, an Authorization header, the text of a
// credentials file) and the CREDS name part count as secret whatever the variable is called; ordinary
// values do not.
import { describe, expect, test } from "bun:test"
import { looksSecretName, looksSecretVariable } from "../../core/base/secretname.ts"

const SECRETS: Record<string, string> = {
  DOCKER_CREDS: "FAKESECRET-creds1234",
  GH: "ghp_FAKESECRETabcdefghijklmnopqrstuv",
  GHS: "ghs_FAKESECRETabcdefghijklmnopqrstuv",
  CFG: "github_pat_11FAKESECRET0123456789abcdef",
  GLAB: "glpat-FAKESECRET0123456789",
  SLACK_BOT: "xoxb-1234-FAKESECRET-abcdef",
  ANTHROPIC: "sk-ant-api03-FAKESECRET-abcdefghij",
  OPENAI: "sk-proj-FAKESECRETabcdefghij",
  NPMTOK: "npm_FAKESECRETabcdefghijklmnop",
  AWSID: "AKIAFAKESECRET123456",
  GIT_CONFIG_VALUE_0: "Authorization: Bearer FAKESECRET-x",
  HDR: "Authorization: Bearer abcdefgh123",
  BASIC: "Basic dXNlcjpGQUtFU0VDUkVU",
  BEARER: "Bearer FAKESECRETabcdef",
  NPMRC_CONTENT: "//registry.npmjs.org/:_authToken=npm_FAKESECRETabcdefghijkl",
  AWS_CONF: "[default]\naws_secret_access_key = FAKESECRET",
  PGPASSLINE: "db:5432:app:user:FAKESECRETpg",
}
const PLAIN: Record<string, string> = {
  PATH: "/usr/local/bin:/usr/bin:/bin:/usr/sbin",
  MSG: "Basic setup done, see the log",
  LANG: "en_US.UTF-8.utf8-long",
  SHELL_OPTS: "braceexpand:hashall:interactive-comments",
  TASK: "ask the user for a token later",
  HOSTPORT: "localhost:5432/app-database",
}

describe("secret values by shape", () => {
  for (const [name, value] of Object.entries(SECRETS)) test(`${name} is secret`, () => expect(looksSecretVariable(name, { [name]: value })).toBe(true))
  for (const [name, value] of Object.entries(PLAIN)) test(`${name} is not`, () => expect(looksSecretVariable(name, { [name]: value })).toBe(false))
})

describe("secret names in any case", () => {
  // task inputs and tool arguments are lower case (`api_token`): their values are masked like API_TOKEN's
  for (const name of ["api_token", "apiToken", "github_token", "db_password", "Client_Secret"]) test(`${name} is secret by its name`, () => expect(looksSecretName(name)).toBe(true))
  for (const name of ["tokenizer", "passage", "keyboard"]) test(`${name} is not`, () => expect(looksSecretName(name)).toBe(false))
})
