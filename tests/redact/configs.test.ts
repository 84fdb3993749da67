import { describe, expect, test } from "bun:test"
import { createRedactor } from "../../core/redact/index.ts"

const r = createRedactor()

describe("secrets in configuration shapes", () => {
  test("a JWK's private members are hidden in structured data; its public ones and other objects' `d` are not", () => {
    const jwk = { kty: "EC", crv: "P-256", x: "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU", d: "jpsQnnGQmL-YBIffH1136cLSG5dDPzB0z2dxJz7HaYw" }
    expect(r.value(jwk)).toEqual({ ...jwk, d: "***" })
    expect(r.value({ d: "2024-05-01", p: 3 })).toEqual({ d: "2024-05-01", p: 3 })
  })

  test("a connection string keeps everything but the password, whatever its quoting", () => {
    expect(r.text("Server=db;Uid=app;Pwd={a;b=c};Encrypt=yes")).toBe("Server=db;Uid=app;Pwd={[REDACTED:connection-string-password]};Encrypt=yes")
    // a password with spaces runs to the `;`
    expect(r.text("Server=db;User Id=app;Password=two words 42;")).toMatch(/^Server=db;User Id=app;Password=\[REDACTED:[a-z-]+\];$/)
  })

  test("a token used as a URL's user is hidden; user names stay", () => {
    expect(r.text("https://0123456789abcdef0123456789abcdef01234567@github.com/a/b.git")).toBe("https://[REDACTED:url-user-token]@github.com/a/b.git")
    expect(r.text("https://deploy@git.example.com/a/b.git")).toBe("https://deploy@git.example.com/a/b.git")
  })

  test("documented example credentials stay readable, a real key with the same shape does not", () => {
    const docs = "aws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
    expect(r.text(docs)).toBe(docs)
    expect(r.text("aws_access_key_id = AKIAIOSFODNN7EXAMPLF")).toBe("aws_access_key_id = [REDACTED:aws-access-key-id]")
    expect(r.text("key AKIAIOSFODNN7EXAMPLE2")).toBe("key AKIAIOSFODNN7EXAMPLE2")
  })

  test("a PEM key printed by grep -rn, cat -A or sed -n l is hidden to its end line", () => {
    const body = ["MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun", "VTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK"]
    const key = ["-----BEGIN RSA PRIVATE KEY-----", ...body, "-----END RSA PRIVATE KEY-----"]
    const grep = key.map((l, i) => `keys/id_rsa:${i + 1}:${l}`).join("\n")
    expect(r.text(grep)).toBe("keys/id_rsa:1:[REDACTED:private-key]")
    const catA = key.map((l) => `${l}$`).join("\n")
    expect(r.text(catA)).toBe("[REDACTED:private-key]$")
  })
})
