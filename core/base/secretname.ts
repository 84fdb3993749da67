// Environment variables that hold a secret, by name or by value: the redaction masks their values
// unasked, and the shell analysis judges a command that expands one. Pure.

// A name that says it holds a secret. Rules, not a list of products:
// - a secret word at the end (`GITHUB_TOKEN`, `DB_PASS`, `SYSTEM_ACCESSTOKEN`, `SSHPASS`, `LDAP_BIND_PW`)
//   or anywhere (`PASSWORD`, `PASSPHRASE`, `SECRET`, `API_KEY`, `AUTHORIZATION`, `WEBHOOK`: a webhook's
//   URL is its secret);
// - a session of a password manager or vault CLI (`BW_SESSION`, `OP_SESSION_<account>`);
// - the URL of a database or message broker (`DATABASE_URL`, `REDIS_TLS_URL`, `MONGODB_URI`,
//   `CELERY_BROKER_URL`): a connection URL carries its password (`postgres://app:PASS@db/app`);
// - an auth blob (`DOCKER_AUTH_CONFIG`) or a connection string (`AZURE_STORAGE_CONNECTION_STRING`);
// - a signed token or a key file's content: `CI_JOB_JWT_V2`, `GCP_SA_JSON`, `FIREBASE_SERVICE_ACCOUNT`,
//   `GOOGLE_CREDENTIALS_JSON`, `KUBE_CONFIG`/`KUBECONFIG_DATA` (KUBECONFIG alone is a path), a keystore
//   or certificate bundle (`KEYSTORE_BASE64`, `SIGNING_CERT_P12`, `GITHUB_APP_PEM`), a TOTP seed, the text
//   of a credentials file (`NETRC`, `NPM_RC`, `PYPIRC`, `DOCKER_CONFIG_JSON`).
const SECRET_NAME = new RegExp([
  String.raw`(?:^|_)(?:TOKEN|KEY|SECRET|PASS|PASSWD|PWD|PW|CREDENTIALS?|CREDS?|APIKEY|AUTH|PAT|DSN|SAS|COOKIE)$`,
  String.raw`TOKEN$|PASSWD$|[A-Z]PASS$|PASSWORD|PASSPHRASE|SECRET|PRIVATE_?KEY|API_?KEY|ACCESS_?KEY|WRITE_?KEY$|_TOKEN_|AUTHORIZATION|WEBHOOK`,
  String.raw`(?:^|_)SESSION$|^OP_SESSION_`,
  String.raw`(?:^|_)(?:DATABASE|DB|POSTGRES|PG|MYSQL|MARIADB|MONGO|REDIS|AMQP|CLOUDAMQP|RABBITMQ|BROKER|CLEARDB|JAWSDB)[A-Z0-9_]*_UR[LI]$`,
  String.raw`(?:^|_)AUTH_(?:CONFIG|HEADERS?|JSON|STRING|INFO)$|CONNECTION_?STRING|(?:^|_)CONN_?STR$`,
  String.raw`(?:^|_)JWT(?:_|$)|SERVICE_?ACCOUNT|(?:^|_)SA_(?:JSON|KEY)|CREDENTIALS?_JSON|KUBE_CONFIG|KUBECONFIG_|KEYSTORE|(?:^|_)(?:P12|PFX|PEM|JKS|TOTP|OTP_SEED)(?:_|$)`,
  String.raw`(?:^|_)(?:NETRC|NPM_?RC|PYPIRC|DOCKER_?CONFIG_?JSON)$`,
].join("|"), "i")

/** Names that match the shape above but hold paths, public material or desktop state. */
const NOT_SECRET_NAME = /^(?:OLD)?PWD$|_(?:FILE|PATH|DIR)$|PUBLIC|(?:BY|COM|SUR|ASK)PASS$|^(?:DESKTOP|XDG|GDM)_SESSION/i

/** A URL with a password in it (`https://user:PASS@host`, `redis://:PASS@host`): a proxy, a package
 *  index or any `*_URL` set so carries a credential whatever the variable is called. */
const URL_WITH_PASSWORD = /[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s/@:]*:[^\s/@]+@/

/** A value shaped like a secret whatever its variable's name: a JWT (`eyJ…​.…​.…`), a PEM private key, a
 *  JSON key file (`"private_key":`, `"client_secret":`, `"refresh_token":`, docker's `"auth":`), a
 *  kubeconfig's `token:`/`client-key-data:`, a netrc's `password`. */
const SECRET_VALUE = new RegExp([
  String.raw`(?:^|[^A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{2,}\.[A-Za-z0-9_-]+\.`,
  String.raw`-----BEGIN [A-Z0-9 ]*PRIVATE KEY`,
  String.raw`"(?:private_key|client_secret|refresh_token|access_token|token|password|secret|auth|api_key|apiKey)"\s*:`,
  String.raw`(?:^|\n)\s*(?:token|client-key-data|password|auth-provider):\s*\S`,
  String.raw`\bmachine\s+\S+[\s\S]*\bpassword\s+\S`,
  // vendor tokens, whose prefixes exist to be recognised: GitHub, GitLab, Slack, Anthropic/OpenAI, npm, AWS
  String.raw`\b(?:gh[pousr]_[A-Za-z0-9_]{16,}|github_pat_\w{16,}|glpat-[\w-]{12,}|xox[abeprs]-[\w-]{8,}|sk-(?:ant-|proj-)?[\w-]{16,}|npm_[A-Za-z0-9]{16,}|AKIA[0-9A-Z]{16})`,
  // an Authorization header or its value; the texts of .npmrc, aws credentials, .pgpass
  String.raw`^\s*(?:[Bb]earer|[Bb]asic|[Tt]oken)\s+\S{8,}|\n[ \t]*(?:[Bb]earer|[Bb]asic|[Tt]oken)\s+\S{8,}|Authorization:\s*\S|_auth(?:Token)?\s*=\s*\S|(?:aws_secret_access_key|aws_session_token)\s*=`,
  String.raw`^[^:\s]+:(?:\d+|\*):[^:\s]+:[^:\s]+:\S+$`,
].join("|"))

/** `GITHUB_TOKEN`, `AWS_SECRET_ACCESS_KEY`, `PGPASSWORD`, `DATABASE_URL`: names whose values are masked unasked. */
export function looksSecretName(name: string): boolean {
  return SECRET_NAME.test(name) && !NOT_SECRET_NAME.test(name)
}

/** A variable that holds a secret: by its name, or by its value when that is known (a URL with a
 *  password: `HTTPS_PROXY=http://u:PASS@proxy`, `PIP_INDEX_URL=https://__token__:PASS@host/simple`; a
 *  JWT, a private key, a key file or kubeconfig's text).
 *  `env`: the environment, read for own entries only (a name may be `constructor`). */
export function looksSecretVariable(name: string, env: Record<string, string | undefined> | undefined): boolean {
  if (looksSecretName(name)) return true
  const value = env && Object.hasOwn(env, name) ? env[name] : undefined
  if (typeof value !== "string" || value.length < 12) return false
  return (value.includes("://") && URL_WITH_PASSWORD.test(value)) || SECRET_VALUE.test(value)
}
