// Secrets fed to a program's stdin password option: here-strings, here-docs and `echo LITERAL |`.
import { describe, expect, test } from "bun:test"
import { createRedactor } from "../../core/redact/index.ts"

const r = createRedactor()
const M = "[REDACTED:stdin-secret]"

describe("literal secrets piped to a stdin password option", () => {
  test.each([
    // here-strings, every quoting
    ['docker login -u bob --password-stdin <<< "S3cr3t-pw" registry.io', `docker login -u bob --password-stdin <<< "${M}" registry.io`],
    ["docker login -u bob --password-stdin <<< 'S3cr3t pw' registry.io", `docker login -u bob --password-stdin <<< '${M}' registry.io`],
    ["docker login -u bob --password-stdin <<<S3cr3t-pw registry.io", `docker login -u bob --password-stdin <<<${M} registry.io`],
    ["docker login --password-stdin -u bob registry.io <<< S3cr3t-pw", `docker login --password-stdin -u bob registry.io <<< ${M}`],
    ['podman login --password-stdin quay.io <<< "S3cr3t-pw"', `podman login --password-stdin quay.io <<< "${M}"`],
    ['helm registry login r.io -u bob --password-stdin <<< "S3cr3t-pw"', `helm registry login r.io -u bob --password-stdin <<< "${M}"`],
    ['gh auth login --with-token <<< "ghx_notAtoken1234"', `gh auth login --with-token <<< "${M}"`],
    ['vault login - <<< "s.Abcdefgh1234"', `vault login - <<< "${M}"`],
    ['gpg --batch --passphrase-fd 0 -d f.gpg <<< "S3cr3t-pw"', `gpg --batch --passphrase-fd 0 -d f.gpg <<< "${M}"`],
    ['chpasswd <<< "bob:S3cr3t-pw"', `chpasswd <<< "${M}"`],
    ['passwd --stdin bob <<< "S3cr3t-pw"', `passwd --stdin bob <<< "${M}"`],
    // echo / printf into a pipe
    ["echo S3cr3t-pw | docker login -u bob --password-stdin r.io", `echo ${M} | docker login -u bob --password-stdin r.io`],
    ['echo -n "S3cr3t pw" | docker login -u bob --password-stdin r.io', `echo -n "${M}" | docker login -u bob --password-stdin r.io`],
    ["printf '%s' 'S3cr3t-pw' | docker login -u bob --password-stdin r.io", `printf '%s' '${M}' | docker login -u bob --password-stdin r.io`],
    ["printf 'S3cr3t-pw\\n' | gh auth login --with-token", `printf '${M}' | gh auth login --with-token`],
    ["set -e; echo S3cr3t-pw | docker login --password-stdin r.io && docker push r.io/x", `set -e; echo ${M} | docker login --password-stdin r.io && docker push r.io/x`],
    // here-docs feeding the option: the body lines are the secret
    ["docker login -u bob --password-stdin r.io <<EOF\nS3cr3t-pw\nEOF\necho done", `docker login -u bob --password-stdin r.io <<EOF\n${M}\nEOF\necho done`],
    ["docker login --password-stdin r.io << 'END'\nS3cr3t-pw\nEND", `docker login --password-stdin r.io << 'END'\n${M}\nEND`],
    ["gh auth login --with-token <<-EOF\n\tghx_notAtoken1234\n\tEOF", `gh auth login --with-token <<-EOF\n\t${M}\n\tEOF`],
    ["cat <<EOF | docker login --password-stdin r.io\nS3cr3t-pw\nEOF", `cat <<EOF | docker login --password-stdin r.io\n${M}\nEOF`],
    // attacks: concatenated and ANSI-C quoted values, a continued line, a here-doc in a JSON string
    ['docker login --password-stdin r.io <<< "S3cr3t"-pw-tail', `docker login --password-stdin r.io <<< ${M}`],
    ["docker login --password-stdin r.io <<< $'S3cr3t\\x21pw'", `docker login --password-stdin r.io <<< ${M}`],
    ["docker login -u bob \\\n  --password-stdin r.io <<EOF\nS3cr3t-pw\nEOF", `docker login -u bob \\\n  --password-stdin r.io <<EOF\n${M}\nEOF`],
    ['{"command":"docker login --password-stdin r.io <<EOF\\nS3cr3t-pw\\nEOF","cwd":"."}', `{"command":"docker login --password-stdin r.io <<EOF\\n${M}\\nEOF","cwd":"."}`],
    ['{"command":"gh auth login --with-token <<<\\"S3cr3t-pw\\"","x":1}', `{"command":"gh auth login --with-token <<<${M}","x":1}`],
    // the command inside a bash -c string and inside JSON
    [`bash -c 'docker login --password-stdin r.io <<< S3cr3t-pw'`, `bash -c 'docker login --password-stdin r.io <<< ${M}'`],
  ])("%p", (input, expected) => {
    expect(r.text(input)).toBe(expected)
    // printed output arrives in chunks: every cut gives the same text (a here-doc body comes after its line)
    for (const size of [1, 3, 7, 16]) {
      const stream = r.stream()
      let out = ""
      for (let i = 0; i < input.length; i += size) out += stream.push(input.slice(i, i + size))
      expect(out + stream.flush()).toBe(expected)
    }
  })

  test("a here-doc whose delimiter never comes is hidden to the end, also streamed", () => {
    const input = "docker login --password-stdin r.io <<EOF\nS3cr3t-pw\nmore-S3cr3t\n"
    expect(r.text(input)).toBe(`docker login --password-stdin r.io <<EOF\n${M}\n${M}\n`)
    const stream = r.stream()
    expect(stream.push("docker login --password-stdin r.io <<EOF\n") + stream.push("S3cr3t-pw\n") + stream.push("more-S3cr3t\n") + stream.flush()).not.toContain("S3cr3t")
  })

  test("the same commands as stored call arguments are redacted", () => {
    const args = r.value({ command: 'echo "S3cr3t-pw" | docker login -u bob --password-stdin r.io' }) as { command: string }
    expect(args.command).not.toContain("S3cr3t-pw")
    const json = r.text(JSON.stringify({ command: "docker login --password-stdin r.io <<< \"S3cr3t-pw\"" }))
    expect(json).not.toContain("S3cr3t-pw")
  })

  // near misses: variables are not literals (the env rule knows their values); other stdin readers are not password options
  test.each([
    ['echo "$TOKEN" | docker login -u bob --password-stdin r.io'],
    ["docker login --password-stdin r.io <<< \"$REGISTRY_PASSWORD\""],
    ["docker login --password-stdin r.io <<< $(cat pw.txt)"],
    ["docker login --password-stdin r.io < pw.txt"],
    ["grep x <<< 'hello world'"],
    ["echo hello | grep h"],
    ["cat <<EOF > notes.txt\nhello there\nEOF"],
    ["docker login --password-stdin r.io <<EOF\n$REGISTRY_PASSWORD\nEOF"],
    ["echo hello; docker login --password-stdin r.io < pw.txt"],
  ])("left as it is: %p", (input) => {
    expect(r.text(input)).toBe(input)
  })
})
