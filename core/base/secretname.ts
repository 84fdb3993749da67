// Environment variable names that say they hold a secret: the redaction masks their values unasked,
// and the shell analysis judges a command that expands one. Pure.

const SECRET_NAME =
  /(?:^|_)(?:TOKEN|KEY|SECRET|PASS|PASSWD|PWD|CREDENTIALS?|APIKEY|AUTH|PAT|DSN|SAS|COOKIE)$|PASSWORD|SECRET|PRIVATE_?KEY|API_?KEY|ACCESS_?KEY|WRITE_?KEY$|_TOKEN_/i

/** Names that match the shape above but hold paths or public material. */
const NOT_SECRET_NAME = /^(?:OLD)?PWD$|_(?:FILE|PATH|DIR)$|PUBLIC/i

/** `GITHUB_TOKEN`, `AWS_SECRET_ACCESS_KEY`, `PGPASSWORD`: names whose values are masked unasked. */
export function looksSecretName(name: string): boolean {
  return SECRET_NAME.test(name) && !NOT_SECRET_NAME.test(name)
}
