// Credential stores their tools move with a location variable: XDG_CONFIG_HOME holds what ~/.config holds
// (gh's hosts.yml, rclone.conf, ...), XDG_DATA_HOME what ~/.local/share holds (keyrings), CARGO_HOME what
// ~/.cargo holds (credentials.toml). A read of a path written with one of them (`$XDG_CONFIG_HOME/gh/hosts.yml`),
// or of a path below the value the caller's environment gives it (`~/xdg/gh/hosts.yml` when XDG_CONFIG_HOME
// is ~/xdg), is judged by the home location it stands for. Pure.
import { CREDENTIAL_PATHS, BUILD_CREDENTIAL_PATHS } from "../base/secrets.ts"
import { isInside } from "../base/paths.ts"

// variable -> the home folder it replaces
const MOVED: Record<string, string> = {
  XDG_CONFIG_HOME: ".config", XDG_DATA_HOME: ".local/share", XDG_STATE_HOME: ".local/state", XDG_CACHE_HOME: ".cache",
  CARGO_HOME: ".cargo",
}
const WRITTEN = /\$\{?(XDG_CONFIG_HOME|XDG_DATA_HOME|XDG_STATE_HOME|XDG_CACHE_HOME|CARGO_HOME)\}?(\/[^\s"']*)?/

let homeRests: string[] | undefined
// the home-relative credential locations (`.config/gh`, `.cargo/credentials.toml`)
function rests(): string[] {
  return (homeRests ??= [...CREDENTIAL_PATHS, ...BUILD_CREDENTIAL_PATHS].filter((p) => p.startsWith("~/")).map((p) => p.slice(2)))
}

// the credential location `folder/rest` is, or holds (a bare folder holds every one below it)
function storeAt(folder: string, rest: string): string | undefined {
  const rel = rest.replace(/^\/+|\/+$/g, "")
  const full = rel ? `${folder}/${rel}` : folder
  return rests().find((r) => full.toLowerCase() === r.toLowerCase() || full.toLowerCase().startsWith(`${r.toLowerCase()}/`) || (!rel && r.startsWith(`${folder}/`)))
}

// variables that name a credential file or folder (the file in it, "" all of it): a read of the literal
// path the environment gives them is a read of the credential, spelled without the variable
const NAMED: Record<string, string> = {
  KUBECONFIG: "", GOOGLE_APPLICATION_CREDENTIALS: "", AWS_SHARED_CREDENTIALS_FILE: "", AWS_CONFIG_FILE: "", AWS_WEB_IDENTITY_TOKEN_FILE: "",
  AZURE_FEDERATED_TOKEN_FILE: "", PGPASSFILE: "", NETRC: "", REGISTRY_AUTH_FILE: "", VAULT_TOKEN_FILE: "", NPM_CONFIG_USERCONFIG: "",
  npm_config_userconfig: "", RCLONE_CONFIG: "", BOTO_CONFIG: "", TF_CLI_CONFIG_FILE: "", KRB5_KTNAME: "", KRB5_CLIENT_KTNAME: "",
  MYSQL_TEST_LOGIN_FILE: "", PIP_CONFIG_FILE: "", HF_TOKEN_PATH: "", OCI_CLI_CONFIG_FILE: "", SOPS_AGE_KEY_FILE: "", TALOSCONFIG: "",
  ANSIBLE_VAULT_PASSWORD_FILE: "", CREDENTIALS_DIRECTORY: "", GNUPGHOME: "", PASSWORD_STORE_DIR: "", AZURE_CONFIG_DIR: "",
  CLOUDSDK_CONFIG: "", BITWARDENCLI_APPDATA_DIR: "", GH_CONFIG_DIR: "hosts.yml", GLAB_CONFIG_DIR: "config.yml", DOCKER_CONFIG: "config.json",
  HF_HOME: "token", GRADLE_USER_HOME: "gradle.properties", BUNDLE_USER_HOME: "config", HELM_CONFIG_HOME: "repositories.yaml",
  KAGGLE_CONFIG_DIR: "kaggle.json", CLAUDE_CONFIG_DIR: ".credentials.json", GEMINI_CLI_HOME: ".gemini/oauth_creds.json",
  // Kerberos' ticket cache (FILE:/DIR: types), backup and service tokens, poetry's credentials without a keyring,
  // TLS client keys of the HashiCorp/etcd/docker CLIs and of git and libpq, more CLIs' login folders
  KRB5CCNAME: "", RESTIC_PASSWORD_FILE: "", BORG_KEY_FILE: "", CONSUL_HTTP_TOKEN_FILE: "", NOMAD_TOKEN_FILE: "", POETRY_CONFIG_DIR: "auth.toml",
  VAULT_CLIENT_KEY: "", CONSUL_CLIENT_KEY: "", NOMAD_CLIENT_KEY: "", ETCDCTL_KEY: "", DOCKER_CERT_PATH: "key.pem", GIT_SSL_KEY: "",
  PGSSLKEY: "", PGSERVICEFILE: "", PULUMI_HOME: "credentials.json", DATABRICKS_CONFIG_FILE: "", S3CMD_CONFIG: "", JFROG_CLI_HOME_DIR: "",
  OP_CONFIG_DIR: "", MINIKUBE_HOME: "", TELEPORT_HOME: "", HELM_REGISTRY_CONFIG: "", CURL_HOME: ".curlrc", WGETRC: "",
  ANSIBLE_PRIVATE_KEY_FILE: "",
}

/** Whether `env` moves any of the stores or names a credential file (most environments set none of the
 *  variables): the literal-path check is skipped without one. */
export function movesStores(env: Record<string, string | undefined> | undefined): boolean {
  if (!env) return false
  for (const name in MOVED) if (env[name]) return true
  for (const name in NAMED) if (env[name]) return true
  return false
}

/** Why a path the environment's credential variables name is read (KUBECONFIG=/x/kc: /x/kc; GH_CONFIG_DIR=/x/gh:
 *  /x/gh/hosts.yml); undefined when none names it. */
export function namedByVariable(program: string, paths: readonly string[], env: Record<string, string | undefined>): string | undefined {
  for (const [name, rest] of Object.entries(NAMED)) {
    const raw = env[name]
    if (!raw) continue
    // KUBECONFIG holds a list; KRB5 names may carry a `FILE:` type
    for (const one of raw.split(":").map((v) => v.replace(/\/+$/, ""))) {
      if (!one.startsWith("/") || one === "") continue
      const target = rest ? `${one}/${rest}` : one
      for (const p of paths) if (p === target || isInside(target, p)) return `${program} reads ${p}: $${name} names it (${raw}), a credential file (a read sends it to the model)`
    }
  }
  return undefined
}

/** Why a word read by a content-showing program is a relocated credential store; undefined when it is not. */
export function relocatedStore(program: string, text: string, paths: readonly string[], env: Record<string, string | undefined> | undefined): string | undefined {
  const m = WRITTEN.exec(text)
  if (m) {
    const store = storeAt(MOVED[m[1]!]!, m[2] ?? "")
    if (store) return `${program} reads ${text}: $${m[1]} stands for ~/${MOVED[m[1]!]}, and this ${m[2]?.replace(/\/+$/, "") ? "is" : "holds"} ~/${store}, where credentials are kept (a read sends them to the model)`
  }
  if (!env) return undefined
  const named = namedByVariable(program, paths, env)
  if (named) return named
  for (const [name, folder] of Object.entries(MOVED)) {
    const value = env[name]?.replace(/\/+$/, "")
    if (!value || !value.startsWith("/")) continue
    for (const p of paths) {
      if (!isInside(value, p)) continue
      const store = storeAt(folder, p.slice(value.length))
      if (store) return `${program} reads ${p}: it is below $${name} (${value}), which stands for ~/${folder}, and this is ~/${store}, where credentials are kept (a read sends them to the model)`
    }
  }
  return undefined
}
