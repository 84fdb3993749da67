// Credential files other tools' configs name by path: a kubeconfig's `client-key` and `tokenFile` (relative
// to the kubeconfig), the AWS config's `web_identity_token_file` and the files its `credential_process`
// command names, npm's `keyfile` (a registry's TLS client key). A read of such a file is a read of the
// credential, whatever it is called. Side effects: reads the configs (bounded by text()).
import { dirname } from "node:path"
import { place, text } from "./sshnamed.ts"

/** Add the files the user's kubeconfigs, AWS configs and .npmrc name to `named` (path -> why). */
export function toolNamed(home: string, env: Record<string, string | undefined> | undefined, named: Map<string, string>): void {
  const kube = env?.KUBECONFIG ? env.KUBECONFIG.split(":").filter(Boolean) : [`${home}/.kube/config`]
  for (const f of kube.slice(0, 20)) {
    for (const m of (text(f) ?? "").matchAll(/^\s*(client-key|tokenFile|token-file)\s*:\s*["']?([^"'\s#]+)/gm)) add(m[2]!, home, dirname(f), `the ${m[1]} ${f} names`, named)
  }
  const aws = [env?.AWS_CONFIG_FILE || `${home}/.aws/config`, env?.AWS_SHARED_CREDENTIALS_FILE || `${home}/.aws/credentials`]
  for (const f of aws) {
    const src = text(f) ?? ""
    for (const m of src.matchAll(/^\s*web_identity_token_file\s*=\s*(\S+)/gm)) add(m[1]!, home, home, `the web_identity_token_file ${f} names`, named)
    for (const m of src.matchAll(/^\s*credential_process\s*=\s*(.+)$/gm)) {
      for (const p of m[1]!.matchAll(/(?:^|[\s'"=])((?:~\/|\/)[^\s;|&'"<>()]+)/g)) {
        if (!/^\/(?:usr|bin|sbin|etc|dev|proc)\//.test(p[1]!)) add(p[1]!, home, home, `a file the credential_process of ${f} reads`, named)
      }
    }
  }
  const npmrc = env?.NPM_CONFIG_USERCONFIG || env?.npm_config_userconfig || `${home}/.npmrc`
  for (const m of (text(npmrc) ?? "").matchAll(/^\s*(?:\/\/[^\s=]*:)?keyfile\s*=\s*(\S+)/gm)) add(m[1]!, home, home, `the keyfile ${npmrc} names`, named)
}

function add(value: string, home: string, from: string, why: string, named: Map<string, string>): void {
  const p = place(value, home, from)
  if (p && !named.has(p)) named.set(p, why)
}
