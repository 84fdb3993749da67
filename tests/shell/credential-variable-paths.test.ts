// A credential file a location variable names (KUBECONFIG, GH_CONFIG_DIR, AWS_SHARED_CREDENTIALS_FILE, ...)
// is a credential by the literal path the environment gives it too, not only spelled `$KUBECONFIG`.
import { beforeAll, describe, expect, test } from "bun:test"
import { analyzeShellSync, loadParser } from "../../core/shell/index.ts"
import { ATTACK_CONTEXT } from "./attacks.ts"

beforeAll(() => loadParser())

describe("paths the credential variables name", () => {
  const env = {
    ...ATTACK_CONTEXT.env, KUBECONFIG: "/srv/reloc/kc", GH_CONFIG_DIR: "/srv/reloc/ghd", AWS_SHARED_CREDENTIALS_FILE: "/srv/reloc/awsc",
    DOCKER_CONFIG: "/srv/reloc/docker", HF_HOME: "/srv/reloc/hf", CLAUDE_CONFIG_DIR: "/srv/reloc/claude", KRB5CCNAME: "FILE:/tmp/krb5cc_1",
  }
  const analyse = (cmd: string) => analyzeShellSync(cmd, { ...ATTACK_CONTEXT, env })

  test("each literal path asks high and names its variable", () => {
    for (const [cmd, name] of [["cat /srv/reloc/kc", "KUBECONFIG"], ["cat /srv/reloc/ghd/hosts.yml", "GH_CONFIG_DIR"], ["head /srv/reloc/awsc", "AWS_SHARED_CREDENTIALS_FILE"],
      ["cat /srv/reloc/docker/config.json", "DOCKER_CONFIG"], ["cat /srv/reloc/hf/token", "HF_HOME"], ["cat /srv/reloc/claude/.credentials.json", "CLAUDE_CONFIG_DIR"]]) {
      const a = analyse(cmd!)
      expect({ cmd, risk: a.risk, named: a.reasons.some((r) => r.includes(`$${name}`)) }).toEqual({ cmd, risk: "high", named: true })
    }
  })

  test("controls: the folders' other files and unrelated paths stay as they were", () => {
    for (const cmd of ["cat /srv/reloc/claude/settings.json", "ls /srv/reloc/ghd", "cat /srv/reloc/hf/hub/README.md", "cat README.md"]) expect({ cmd, risk: analyse(cmd).risk }).toEqual({ cmd, risk: "safe" })
  })
})
