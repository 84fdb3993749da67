// ccode policy keygen|sign: the organisation's Ed25519 key pair and detached signatures of policy
// files (FILE.sig), which managed.d and (when required) workspace policies must carry.
import { chmodSync, existsSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs"
import { resolve } from "node:path"
import { globalArgs, jsonArg } from "../args.ts"
import { command } from "../command.ts"
import { UsageError } from "../errors.ts"

export const keygen = command({
  meta: { name: "keygen", description: "Make an Ed25519 key pair for signing policies; prints the key id and the public key to pin" },
  examples: ["ccode policy keygen --out ~/keys/acme-policy.key   # writes acme-policy.key (0600) and acme-policy.key.pub"],
  args: {
    ...jsonArg,
    out: { type: "string", description: "private key file to write (default ccode-policy.key); the public key goes to OUT.pub", valueHint: "FILE" },
    ...globalArgs,
  },
  async run({ args }) {
    const file = resolve((args.out as string | undefined) || "ccode-policy.key")
    for (const f of [file, `${file}.pub`]) if (existsSync(f)) throw new UsageError(`--out: ${f} exists; refusing to overwrite a key`)
    const { generateKeyPair } = await import("../../core/policy/signature.ts")
    const { privatePem, publicKey } = generateKeyPair()
    try {
      // created 0600 from the start: the private key is never readable by others, not even for an instant
      writeFileSync(file, privatePem, { mode: 0o600, flag: "wx" })
      chmodSync(file, 0o600)
      writeFileSync(`${file}.pub`, `${publicKey.text}\n`, { flag: "wx" })
    } catch (err) {
      throw new UsageError(`--out: cannot write ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`)
    }
    if (args.json) {
      console.log(JSON.stringify({ key_id: publicKey.id, public_key: publicKey.text, private_key_file: file, public_key_file: `${file}.pub` }))
    } else {
      console.log(`key id ${publicKey.id}`)
      console.log(`private key: ${file} (mode 0600; keep it off the machines that run ccode)`)
      console.log(`public key:  ${file}.pub`)
      console.log(`pin it in /etc/ccode/managed.yaml:\n  trusted_keys:\n    - ${publicKey.text}`)
    }
    return 0
  },
})

export const sign = command({
  meta: { name: "sign", description: "Sign a policy file with an Ed25519 private key: writes the detached signature FILE.sig" },
  examples: ["ccode policy sign /etc/ccode/managed.d/10-acme.yaml --key ~/keys/acme-policy.key"],
  args: {
    ...jsonArg,
    file: { type: "positional", description: "policy file to sign", required: true },
    key: { type: "string", description: "private key file (from ccode policy keygen)", valueHint: "KEY", required: true },
    ...globalArgs,
  },
  async run({ args }) {
    const file = resolve(args.file as string)
    const keyFile = resolve(args.key as string)
    const [{ parsePrivateKey, signContent }, { parsePolicy }] = await Promise.all([
      import("../../core/policy/signature.ts"), import("../../core/policy/parse.ts"),
    ])
    let pem: string
    try {
      pem = readFileSync(keyFile, "utf8")
    } catch (err) {
      throw new UsageError(`--key: cannot read ${keyFile}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`)
    }
    let key
    try {
      key = parsePrivateKey(pem)
    } catch (err) {
      throw new UsageError(`--key: ${keyFile} is ${(err as Error).message}`)
    }
    if (statSync(keyFile).mode & 0o077) console.error(`warning: ${keyFile} is readable by others; chmod 600 it`)
    let content: Buffer
    try {
      content = readFileSync(file)
    } catch (err) {
      throw new UsageError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`)
    }
    // a signature vouches for a policy that loads: a broken one fails here (exit 2), not on every machine
    await parsePolicy(content.toString("utf8"), file, { name: "managed", trusted: true })
    const sigFile = `${file}.sig`
    const tmp = `${sigFile}.${process.pid}.tmp`
    writeFileSync(tmp, signContent(content, key.key, key.publicKey.id))
    renameSync(tmp, sigFile)
    if (args.json) console.log(JSON.stringify({ file, signature_file: sigFile, key_id: key.publicKey.id }))
    else console.log(`signed ${file} with key ${key.publicKey.id} -> ${sigFile}`)
    return 0
  },
})
