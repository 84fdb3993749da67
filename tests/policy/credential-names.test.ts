// A host's read tool reaches the credential files attack review 11 found by name and by place (a PuTTY
// key, terraform values, a vault password, a Kerberos ticket cache, systemd's service credentials, apt's
// logins): each read asks high; the everyday files beside them stay allowed. Real files.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { loadParser } from "../../core/shell/index.ts"
import { prepareCall } from "../../core/policy/prepare.ts"
import { decide } from "../../core/policy/decide.ts"
import { bundledPolicy } from "../../core/policy/bundled.ts"

describe("credential files by name and place, read by a host tool", () => {
  let root: string
  let ws: string
  beforeAll(async () => {
    await loadParser()
    root = realpathSync(mkdtempSync(join(tmpdir(), "ccode-crednames-")))
    ws = join(root, "ws")
    mkdirSync(join(ws, "cfg"), { recursive: true })
    for (const name of ["x.ppk", "terraform.tfvars", ".vault_pass", "token.pickle", "serviceAccountKey.json", "variables.tf", "main.tf", "KEYS.asc"]) writeFileSync(join(ws, "cfg", name), "FAKESECRET\n")
  })
  afterAll(() => rmSync(root, { recursive: true, force: true }))

  const read = async (path: string) => {
    const policy = bundledPolicy("default")
    const call = await prepareCall("read_file", { path }, { cwd: ws, workspace: ws, home: join(root, "home"), tmpDirs: [], toolRisk: "safe", policy })
    return decide(policy, call, { grants: [] })
  }

  test("the credential files ask high", async () => {
    for (const path of ["cfg/x.ppk", "cfg/terraform.tfvars", "cfg/.vault_pass", "cfg/token.pickle", "cfg/serviceAccountKey.json", "/tmp/krb5cc_1000", "/run/credentials/db.service/password", "/etc/apt/auth.conf.d/corp.conf", "/var/backups/shadow.bak", "/run/containers/0/auth.json"]) {
      const d = await read(path)
      expect({ path, decision: d.decision, risk: d.risk }).toEqual({ path, decision: "ask", risk: "high" })
      expect(d.reason).toContain("where credentials are kept")
    }
  })

  test("the files beside them stay allowed", async () => {
    for (const path of ["cfg/variables.tf", "cfg/main.tf", "cfg/KEYS.asc", "/etc/apt/sources.list", "/tmp/build.log"]) {
      const d = await read(path)
      expect({ path, decision: d.decision }).toEqual({ path, decision: "allow" })
    }
  })
})
