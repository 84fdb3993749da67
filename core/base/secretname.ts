// Environment variables that hold a secret, by name or by value: the redaction masks their values
// unasked, and the shell analysis judges a command that expands one. Pure.

// A name that says it holds a secret. Rules, not a list of products:
// - a secret word at the end (`GITHUB_TOKEN`, `DB_PASS`, `SYSTEM_ACCESSTOKEN`, `SSHPASS`, `LDAP_BIND_PW`)
//   or anywhere (`PASSWORD`, `PASSPHRASE`, `SECRET`, `API_KEY`, `AUTHORIZATION`, `WEBHOOK`: a webhook's
//   URL is its secret);
// - a session of a password manager or vault CLI (`BW_SESSION`, `OP_SESSION_<account>`);
// - the URL of a database or message broker (`DATABASE_URL`, `REDIS_TLS_URL`, `MONGODB_URI`,
//   `CELERY_BROKER_URL`): a connection URL carries its password (`postgres://app:PASS@db/app`);
// - an auth blob (`DOCKER_AUTH_CONFIG`) or a connection string (`AZURE_STORAGE_CONNECTION_STRING`).
const SECRET_NAME = new RegExp([
  String.raw`(?:^|_)(?:TOKEN|KEY|SECRET|PASS|PASSWD|PWD|PW|CREDENTIALS?|APIKEY|AUTH|PAT|DSN|SAS|COOKIE)$`,
  String.raw`TOKEN$|PASSWD$|[A-Z]PASS$|PASSWORD|PASSPHRASE|SECRET|PRIVATE_?KEY|API_?KEY|ACCESS_?KEY|WRITE_?KEY$|_TOKEN_|AUTHORIZATION|WEBHOOK`,
  String.raw`(?:^|_)SESSION$|^OP_SESSION_`,
  String.raw`(?:^|_)(?:DATABASE|DB|POSTGRES|PG|MYSQL|MARIADB|MONGO|REDIS|AMQP|CLOUDAMQP|RABBITMQ|BROKER|CLEARDB|JAWSDB)[A-Z0-9_]*_UR[LI]$`,
  String.raw`(?:^|_)AUTH_(?:CONFIG|HEADERS?|JSON|STRING|INFO)$|CONNECTION_?STRING|(?:^|_)CONN_?STR$`,
].join("|"), "i")

/** Names that match the shape above but hold paths, public material or desktop state. */
const NOT_SECRET_NAME = /^(?:OLD)?PWD$|_(?:FILE|PATH|DIR)$|PUBLIC|(?:BY|COM|SUR|ASK)PASS$|^(?:DESKTOP|XDG|GDM)_SESSION/i

/** A URL with a password in it (`https://user:PASS@host`, `redis://:PASS@host`): a proxy, a package
 *  index or any `*_URL` set so carries a credential whatever the variable is called. */
const URL_WITH_PASSWORD = /[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s/@:]*:[^\s/@]+@/

/** `GITHUB_TOKEN`, `AWS_SECRET_ACCESS_KEY`, `PGPASSWORD`, `DATABASE_URL`: names whose values are masked unasked. */
export function looksSecretName(name: string): boolean {
  return SECRET_NAME.test(name) && !NOT_SECRET_NAME.test(name)
}

/** A variable that holds a secret: by its name, or by its value when that is known (a URL with a
 *  password: `HTTPS_PROXY=http://u:PASS@proxy`, `PIP_INDEX_URL=https://__token__:PASS@host/simple`).
 *  `env`: the environment, read for own entries only (a name may be `constructor`). */
export function looksSecretVariable(name: string, env: Record<string, string | undefined> | undefined): boolean {
  if (looksSecretName(name)) return true
  const value = env && Object.hasOwn(env, name) ? env[name] : undefined
  return typeof value === "string" && value.includes("://") && URL_WITH_PASSWORD.test(value)
}
