// Round 11: the Kerberos ticket cache KRB5CCNAME names, restic's and consul's token files, poetry's auth.toml
// (relocated by POETRY_CONFIG_DIR or in its default place) and RubyGems' XDG credentials file are credentials
// by the literal path too, not only spelled with the variable.
import { beforeAll, describe, expect, test } from "bun:test"
import { analyzeShellSync, loadParser } from "../../core/shell/index.ts"
import { ATTACK_CONTEXT } from "./attacks.ts"

beforeAll(() => loadParser())

describe("credential stores named by more variables, and default stores", () => {
  const env = {
    ...ATTACK_CONTEXT.env, KRB5CCNAME: "FILE:/srv/cred/krbcache", RESTIC_PASSWORD_FILE: "/srv/cred/resticpw", CONSUL_HTTP_TOKEN_FILE: "/srv/cred/consultok",
    POETRY_CONFIG_DIR: "/srv/cred/poetry", PGSSLKEY: "/srv/cred/pg.key", DOCKER_CERT_PATH: "/srv/cred/dockercerts",
  }
  const analyse = (cmd: string) => analyzeShellSync(cmd, { ...ATTACK_CONTEXT, env })

  test("each literal path asks high and names its variable", () => {
    for (const [cmd, name] of [["cat /srv/cred/krbcache", "KRB5CCNAME"], ["cat /srv/cred/resticpw", "RESTIC_PASSWORD_FILE"], ["strings /srv/cred/consultok", "CONSUL_HTTP_TOKEN_FILE"],
      ["cat /srv/cred/poetry/auth.toml", "POETRY_CONFIG_DIR"], ["head /srv/cred/pg.key", "PGSSLKEY"], ["cat /srv/cred/dockercerts/key.pem", "DOCKER_CERT_PATH"]]) {
      const a = analyse(cmd!)
      expect({ cmd, risk: a.risk, named: a.reasons.some((r) => r.includes(`$${name}`)) }).toEqual({ cmd, risk: "high", named: true })
    }
  })

  test("the variables spelled in the command name a credential whatever their value", () => {
    for (const cmd of ["cat $RESTIC_PASSWORD_FILE", "cat ${CONSUL_HTTP_TOKEN_FILE}", "cat $GIT_SSL_KEY"]) expect({ cmd, risk: analyse(cmd).risk }).toEqual({ cmd, risk: "high" })
  })

  test("controls: the folders' other files stay as they were", () => {
    for (const cmd of ["cat /srv/cred/poetry/config.toml", "ls /srv/cred/dockercerts", "cat /srv/cred/dockercerts/ca.pem", "ls ~/.local/share/gem"]) expect({ cmd, risk: analyse(cmd).risk }).toEqual({ cmd, risk: "safe" })
  })
})
