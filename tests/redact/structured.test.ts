import { describe, expect, test } from "bun:test"
import { createRedactor, isIdKey, isSensitiveKey } from "../../core/redact/index.ts"

const redactor = createRedactor({ home: "/home/alice" })

describe("structured data (tool args, events)", () => {
  test("values under sensitive keys become *** whatever their shape", () => {
    const args = {
      api_key: "k1", apiKey: 42, "X-Api-Key": "abc", Authorization: "Basic Zm9v", client_secret: { a: 1 },
      GITHUB_TOKEN: ["x"], password: "p", db_pass: "p2", credentials: "c", cookie: "sid=1", private_key: "pk",
    }
    const out = redactor.value(args)
    for (const v of Object.values(out)) expect(v).toBe("***")
  })

  test("counts and names that merely contain a keyword are kept", () => {
    const usage = { max_tokens: 4096, input_tokens: 12, token_count: 3, tokenizer: "cl100k", secret_name: "db", password_hint: "pet", keys: 2, pwd: "/tmp" }
    expect(redactor.value(usage)).toEqual(usage)
  })

  test("empty, null and yes/no values under sensitive keys stay visible", () => {
    const args = { password: "", token: null, secret: false, has_password: true, api_key: undefined }
    expect(redactor.value(args)).toEqual(args)
  })

  test("user_id-like keys keep their first and last 4 characters", () => {
    expect(redactor.value<unknown>({ user_id: "usr_1234567890abcdef", accountId: "acct_0000111122223333", session_id: 123, email: "a@b.io" })).toEqual({
      user_id: "usr_***cdef",
      accountId: "acct***3333",
      session_id: "***",
      email: "***",
    })
  })

  test("other strings, keys included, go through text redaction", () => {
    const out = redactor.value<unknown>({
      command: "psql postgres://app:pw-123456@db/app",
      "/home/alice/notes.txt": "saved",
      list: ["ok", "Bearer abc.def.123456"],
    })
    expect(out).toEqual({
      command: "psql postgres://app:[REDACTED:url-password]@db/app",
      "/home/***/notes.txt": "saved",
      list: ["ok", "Bearer [REDACTED:bearer-token]"],
    })
  })

  test("name/value pairs and header pairs hide the value of a secret name", () => {
    const out = redactor.value<unknown>({
      env: [{ name: "DB_PASSWORD", value: "x1" }, { name: "LOG_LEVEL", value: "debug" }],
      headers: [["Authorization", "token t"], ["Accept", "json"]],
    })
    expect(out).toEqual({
      env: [{ name: "DB_PASSWORD", value: "***" }, { name: "LOG_LEVEL", value: "debug" }],
      headers: [["Authorization", "***"], ["Accept", "json"]],
    })
  })

  test("returns a copy and leaves the input untouched, cycles included", () => {
    const input: Record<string, unknown> = { token: "t-1", nested: { password: "p" }, when: new Date(0) }
    input.self = input
    const out = redactor.value(input) as Record<string, unknown>
    expect(input.token).toBe("t-1")
    expect((input.nested as Record<string, unknown>).password).toBe("p")
    expect(out.token).toBe("***")
    expect(out.self).toBe("[Circular]")
    expect(out.when).toEqual(new Date(0))
    expect(out).not.toBe(input)
  })

  test('a "__proto__" key from parsed JSON stays an ordinary key', () => {
    const out = redactor.value(JSON.parse('{"__proto__": {"token": "t"}, "a": 1}')) as Record<string, unknown>
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype)
    expect(Object.keys(out)).toEqual(["__proto__", "a"])
    expect(JSON.stringify(out)).toBe('{"__proto__":{"token":"***"},"a":1}')
  })

  test("an Error keeps its shape with the message redacted", () => {
    const out = redactor.value({ error: new Error("auth failed for postgres://u:pw-999999@h/db") }) as { error: { message: string } }
    expect(out.error.message).toBe("auth failed for postgres://u:[REDACTED:url-password]@h/db")
  })
})

describe("key classification", () => {
  test("recognises secret keys across naming styles", () => {
    for (const k of ["apiKey", "API_KEY", "x-api-key", "accessToken", "refresh_token", "AWS_SECRET_ACCESS_KEY", "clientSecret", "Proxy-Authorization", "set-cookie", "connectionString", "passphrase", "auth"])
      expect(isSensitiveKey(k)).toBe(true)
    for (const k of ["max_tokens", "tokenizer", "keyboard", "primary_key", "secret_name", "pass", "pwd", "author", "key"])
      expect(isSensitiveKey(k)).toBe(false)
  })

  test("recognises id-like keys", () => {
    for (const k of ["user_id", "userId", "accountId", "customer_id", "email", "sessionId"]) expect(isIdKey(k)).toBe(true)
    for (const k of ["id", "request_id", "commit_id", "trace_id"]) expect(isIdKey(k)).toBe(false)
  })
})
