import { describe, expect, test } from "bun:test"
import { createRedactor } from "../../core/redact/index.ts"
import { CORPUS, NEAR_MISSES, leaked } from "./corpus.ts"

const redactor = createRedactor()
const jsonEscaped = (s: string) => JSON.stringify(s).slice(1, -1)
const leakedAnyForm = (out: string, secret: string) => leaked(out, secret) || leaked(out, jsonEscaped(secret))

describe("the fake-secret corpus", () => {
  test("has at least 60 distinct kinds and 25 near misses", () => {
    expect(new Set(CORPUS.map((c) => c.kind)).size).toBe(CORPUS.length)
    expect(CORPUS.length).toBeGreaterThanOrEqual(60)
    expect(NEAR_MISSES.length).toBeGreaterThanOrEqual(25)
    for (const c of CORPUS) expect(c.line).toContain(c.secret)
  })

  test.each(CORPUS.map((c) => [c.kind, c] as const))("%s vanishes from a log line", (_kind, c) => {
    const out = redactor.text(c.line)
    expect(leaked(out, c.secret)).toBe(false)
    expect(out).toMatch(/\[REDACTED:[a-z0-9-]+\]/)
  })

  test.each(CORPUS.map((c) => [c.kind, c] as const))("%s vanishes from tool-call args", (_kind, c) => {
    const args = { command: c.line, cwd: "/work" }
    expect(leakedAnyForm(JSON.stringify(redactor.value(args)), c.secret)).toBe(false)
    // the same args serialised before redaction (what an event or export line holds)
    expect(leakedAnyForm(redactor.text(JSON.stringify(args)), c.secret)).toBe(false)
  })

  test.each(CORPUS.map((c) => [c.kind, c] as const))("%s vanishes under a sensitive key", (_kind, c) => {
    const args = { request: { headers: { Authorization: c.secret, Accept: "*/*" }, auth: { user: "ci", password: c.secret } } }
    expect(redactor.value<unknown>(args)).toEqual({ request: { headers: { Authorization: "***", Accept: "*/*" }, auth: "***" } })
  })

  test.each(CORPUS.map((c) => [c.kind, c] as const))("%s vanishes when it is an env var's value", (_kind, c) => {
    const byName = createRedactor({ env: { CORPUS_TOKEN: c.secret, PATH: "/usr/bin" } })
    // in prose where no pattern would see it, raw and JSON-escaped
    const out = byName.text(`value ${c.secret} seen`)
    expect(leaked(out, c.secret)).toBe(false)
    expect(out).toContain("[REDACTED:env:CORPUS_TOKEN]")
    expect(leakedAnyForm(byName.text(JSON.stringify({ out: `value ${c.secret} seen` })), c.secret)).toBe(false)
    // a name that does not look secret counts when the policy lists it (redaction.env)
    const listed = createRedactor({ env: { DEPLOY_CRED: c.secret }, envNames: ["DEPLOY_CRED"] })
    expect(listed.text(`value ${c.secret} seen`)).toBe("value [REDACTED:env:DEPLOY_CRED] seen")
  })
})

describe("ordinary text", () => {
  test.each(NEAR_MISSES.map((l) => [JSON.stringify(l).slice(1, 61), l]))("survives byte for byte: %s", (_name, line) => {
    expect(redactor.text(line)).toBe(line)
    expect(redactor.text(JSON.stringify({ line }))).toBe(JSON.stringify({ line }))
  })

  test("redacting twice changes nothing more", () => {
    for (const c of CORPUS) {
      const once = redactor.text(c.line)
      expect(redactor.text(once)).toBe(once)
    }
  })
})

describe("markers", () => {
  test("name the rule and keep the text around the secret", () => {
    expect(redactor.text("export GITHUB_TOKEN=ghp_" + "a1B2".repeat(9))).toBe("export GITHUB_TOKEN=[REDACTED:github-token]")
    expect(redactor.text("postgres://app:s3cr3t-pw@db:5432/x")).toBe("postgres://app:[REDACTED:url-password]@db:5432/x")
    expect(redactor.text(`{"password": "hunter2-2024"}`)).toBe(`{"password": "[REDACTED:secret-assignment]"}`)
    expect(redactor.text("sshpass -p 'p4ss word' ssh host")).toBe("sshpass -p '[REDACTED:secret-argument]' ssh host")
  })

  test("a known value is named by its variable even where a pattern also matches", () => {
    const token = "ghp_" + "Z9y8".repeat(9)
    const r = createRedactor({ env: { GITHUB_TOKEN: token } })
    expect(r.text(`token=${token}`)).toBe("token=[REDACTED:env:GITHUB_TOKEN]")
  })
})

describe("known secret values", () => {
  test("are found JSON-escaped and URL-encoded", () => {
    const value = 'pa"ss/word with spaces&more'
    const r = createRedactor({ secrets: [value] })
    expect(r.text(JSON.stringify({ arg: value }))).toBe(`{"arg":"[REDACTED:secret]"}`)
    expect(r.text(`https://x.test/?q=${encodeURIComponent(value)}`)).toBe("https://x.test/?q=[REDACTED:secret]")
  })

  test("each line of key material in a multi-line value is found alone (printenv | grep shows one)", () => {
    const lines = ["QUFBQUIzTnphQzF5YzJFQUFBQURBUUFCQUFBQWdR", "cHJpdmF0ZS1saW5lLXR3by1vZi10aGUta2V5LWZpbGU="]
    const r = createRedactor({ env: { DEPLOY_PPK: `Encryption: none\n${lines.join("\n")}\n` }, envNames: ["DEPLOY_PPK"] })
    expect(r.text(`DEPLOY_PPK=${lines[0]}`)).toBe("DEPLOY_PPK=[REDACTED:env:DEPLOY_PPK]")
    expect(r.text(`x ${lines[1]} y`)).toBe("x [REDACTED:env:DEPLOY_PPK] y")
    expect(r.text("Encryption: none")).toBe("Encryption: none")
  })

  test("a variable whose value is a URL with a password is masked whole, whatever its name; an ordinary URL is not", () => {
    const r = createRedactor({ env: { HTTPS_PROXY: "http://me:FAKESECRET-proxy@proxy.test:3128", UV_INDEX_URL: "https://pypi.test/simple", BW_SESSION: "FAKESECRETbwsession0123" } })
    expect(r.text("proxy is http://me:FAKESECRET-proxy@proxy.test:3128 now")).toBe("proxy is [REDACTED:env:HTTPS_PROXY] now")
    expect(r.text("index https://pypi.test/simple")).toBe("index https://pypi.test/simple")
    expect(r.text("session FAKESECRETbwsession0123")).toBe("session [REDACTED:env:BW_SESSION]")
  })

  test("a value read from a file with a trailing newline is still found without it", () => {
    const r = createRedactor({ env: { DEPLOY_TOKEN: "dt-0123456789abcdef\n" } })
    expect(r.text("using dt-0123456789abcdef now")).toBe("using [REDACTED:env:DEPLOY_TOKEN] now")
  })

  test("shorter than 8 characters are ignored so common words stay", () => {
    const r = createRedactor({ env: { API_KEY: "abc123", DB_PASSWORD: "yes" }, secrets: ["main"] })
    expect(r.text("abc123 yes main")).toBe("abc123 yes main")
  })

  test("come only from secret-looking names or the policy's list", () => {
    const r = createRedactor({
      env: { NPM_TOKEN: "tok-1234567890", EDITOR: "vim-9000-editor", PWD: "/home/alice/project", PGPASSWORD: "pg-pass-42xx" },
    })
    expect(r.text("tok-1234567890 vim-9000-editor pg-pass-42xx")).toBe(
      "[REDACTED:env:NPM_TOKEN] vim-9000-editor [REDACTED:env:PGPASSWORD]",
    )
  })

  test("the longer of two overlapping values is hidden whole", () => {
    const r = createRedactor({ secrets: ["abcdefgh12", "abcdefgh12345678"] })
    expect(r.text("x abcdefgh12345678 y abcdefgh12 z")).toBe("x [REDACTED:secret] y [REDACTED:secret] z")
  })
})

describe("home directories", () => {
  test("hide the user name in paths", () => {
    expect(redactor.text("at /home/alice/app/src/a.ts:3:1")).toBe("at /home/***/app/src/a.ts:3:1")
    expect(redactor.text('"/Users/bob.smith/Library"')).toBe('"/Users/***/Library"')
    expect(redactor.text("C:\\Users\\carol\\app")).toBe("C:\\Users\\***\\app")
    expect(redactor.text(JSON.stringify("C:\\Users\\carol\\app"))).toBe(JSON.stringify("C:\\Users\\***\\app"))
    expect(redactor.text("file:///home/dave/x.txt")).toBe("file:///home/***/x.txt")
  })

  test("the caller's own home is hidden wherever it lives", () => {
    const r = createRedactor({ home: "/var/lib/jenkins" })
    expect(r.text("cd /var/lib/jenkins/workspace && ls /var/lib/jenkinsfoo")).toBe("cd /var/lib/***/workspace && ls /var/lib/jenkinsfoo")
  })

  test("URL paths and deeper directories named home are not homes", () => {
    const line = "https://example.com/home/about /mnt/home/share ./home/x cd /home"
    expect(redactor.text(line)).toBe(line)
  })
})

describe("prose and code near secrets", () => {
  test("the word password in a sentence stays", () => {
    for (const line of ["Password: must be at least 12 characters", "enter password: then press enter", "token = await getToken()"]) {
      expect(redactor.text(line)).toBe(line)
    }
  })

  test("source code an agent reads keeps its shape", () => {
    const code = [
      "  apiKey: process.env.OPENAI_API_KEY,",
      "  privateKey: CryptoKey;",
      "const token = getToken(scope);",
      "  password: z.string().min(8),",
      "verifyAccessToken: (token: string) => Promise<AuthInfo>",
      "  readonly STENCIL_PASS: 0x0B96;",
    ]
    for (const line of code) expect(redactor.text(line)).toBe(line)
    // but a value with digits, or a config line's lone value, is still a secret
    expect(redactor.text("  api_key: abc123def;")).toBe("  api_key: [REDACTED:secret-assignment];")
    expect(redactor.text("password: correcthorse")).toBe("password: [REDACTED:secret-assignment]")
  })

  test("placeholders and empty values are not secrets", () => {
    const line = `password: \${DB_PASSWORD} token="<your-token>" secret=*** api_key: null`
    expect(redactor.text(line)).toBe(line)
  })

  test("a bare word after password= is still hidden when nothing follows it", () => {
    expect(redactor.text("PASSWORD=correcthorse")).toBe("PASSWORD=[REDACTED:secret-assignment]")
  })

  test("an unterminated private key block is hidden up to where the key text ends", () => {
    const out = redactor.text('{"key": "-----BEGIN RSA PRIVATE KEY-----\\nMIIEowIBAAKCAQEA7x9', )
    expect(out).toBe('{"key": "[REDACTED:private-key]')
  })
})

describe("the leak check used by these tests", () => {
  test("finds any 12-character piece of a secret, but not pieces ordinary text shares", () => {
    const pem = CORPUS.find((c) => c.kind === "gcp-service-account-key")!.secret
    expect(leaked(`x ${pem.slice(200, 212)} y`, pem)).toBe(true)
    expect(leaked(NEAR_MISSES.join("\n"), pem)).toBe(false)
    expect(leaked("nothing here", "short-secret-value")).toBe(false)
  })
})
