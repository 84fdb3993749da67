// Credentials the way people really type them: as arguments of the programs that take them (in every
// spelling the shell accepts), in connection strings and URLs, in config files, and private keys as
// the tool that printed them decorated their lines. Part of CORPUS (corpus.ts).
import { ALNUM, B64, DIGITS, entry, HEX, LOWER, password, pem, URLSAFE, type CorpusEntry, type Gen } from "./corpus-gen.ts"

/** A password with characters the shell treats specially inside double quotes: none. */
const shellSafe = (g: Gen, n = 16) => password(g, n)

/** `sed -n l`: every line ends in `$`; lines longer than 69 characters are wrapped with a `\`. */
function sedL(text: string): string {
  return text
    .split("\n")
    .map((line) => {
      const parts: string[] = []
      for (let i = 0; i < line.length; i += 69) parts.push(line.slice(i, i + 69))
      return parts.length === 0 ? "$" : parts.join("\\\n") + "$"
    })
    .join("\n")
}

/** The key's body (between its BEGIN and END lines) as printed with a prefix per line. */
function prefixed(key: string, prefix: (n: number) => string): { printed: string; body: string } {
  const lines = key.split("\n").map((l, i) => prefix(i + 1) + l)
  return { printed: lines.join("\n"), body: lines.slice(1, -1).join("\n") }
}

export const TYPED_CORPUS: readonly CorpusEntry[] = [
  // passwords given as arguments
  entry("sshpass-attached", (g) => {
    const secret = shellSafe(g)
    return { secret, line: `sshpass -p${secret} ssh -o StrictHostKeyChecking=no deploy@10.0.0.5 uptime` }
  }),
  entry("sshpass-double-quoted", (g) => {
    const secret = `${g(ALNUM, 8)} ${g(ALNUM, 8)}${g(DIGITS, 2)}`
    return { secret, line: `sshpass -p "${secret}" scp build.tar deploy@10.0.0.5:/srv/` }
  }),
  entry("curl-user-colon", (g) => {
    const secret = shellSafe(g)
    return { secret, line: `curl -u admin:${secret} https://jenkins.internal/api/json` }
  }),
  entry("curl-bundled-user-quoted", (g) => {
    const secret = shellSafe(g, 20)
    return { secret, line: `curl -sSfu 'ci-bot:${secret}' -X POST https://nexus.internal/service/rest/v1/components` }
  }),
  entry("curl-long-user-equals", (g) => {
    const secret = shellSafe(g)
    return { secret, line: `curl --user=backup:"${secret}" -T db.sql.gz ftp://files.internal/` }
  }),
  entry("redis-cli-a", (g) => {
    const secret = g(ALNUM, 32)
    return { secret, line: `redis-cli -h cache.internal -p 6379 -a ${secret} --no-auth-warning INFO keyspace` }
  }),
  entry("mysql-p-single-quoted", (g) => {
    const secret = `${g(ALNUM, 10)} ${g(ALNUM, 6)}!${g(DIGITS, 2)}`
    return { secret, line: `mysql -uroot -p'${secret}' -e 'SHOW DATABASES'` }
  }),
  entry("mysql-continued-line", (g) => {
    const secret = shellSafe(g)
    return { secret, line: `mysql -h db.internal -u root \\\n  -p${secret} shop < dump.sql` }
  }),
  entry("ldapsearch-w", (g) => {
    const secret = shellSafe(g)
    return { secret, line: `ldapsearch -x -H ldaps://dc1.corp.example -D "cn=admin,dc=corp,dc=example" -w ${secret} -b dc=corp,dc=example "(uid=jdoe)"` }
  }),
  entry("ldapsearch-bundled-w", (g) => {
    const secret = shellSafe(g)
    return { secret, line: `ldapsearch -xw${secret} -D cn=reader,dc=example -b ou=people,dc=example` }
  }),
  entry("smbclient-user-percent", (g) => {
    const secret = shellSafe(g)
    return { secret, line: `smbclient //fs01/backups -U 'CORP\\svc-backup%${secret}' -c 'put db.bak'` }
  }),
  entry("htpasswd-b", (g) => {
    const secret = shellSafe(g)
    return { secret, line: `htpasswd -b /etc/nginx/.htpasswd admin ${secret}` }
  }),
  entry("htpasswd-nbB", (g) => {
    const secret = shellSafe(g)
    return { secret, line: `htpasswd -nbB grafana "${secret}" >> users.htpasswd` }
  }),
  entry("sqlcmd-P", (g) => {
    const secret = shellSafe(g)
    return { secret, line: `sqlcmd -S tcp:db.internal,1433 -U sa -P ${secret} -Q "SELECT @@VERSION"` }
  }),
  entry("mongosh-p", (g) => {
    const secret = shellSafe(g, 20)
    return { secret, line: `mongosh --host db.internal -u admin -p '${secret}' --authenticationDatabase admin` }
  }),
  entry("openssl-passout", (g) => {
    const secret = shellSafe(g)
    return { secret, line: `openssl pkcs12 -export -in tls.crt -inkey tls.key -passout pass:${secret} -out tls.p12` }
  }),
  entry("openssl-passin-quoted", (g) => {
    const secret = `${g(ALNUM, 9)} ${g(ALNUM, 9)}${g(DIGITS, 2)}`
    return { secret, line: `openssl rsa -in encrypted.key -passin 'pass:${secret}' -out plain.key` }
  }),
  entry("openssl-enc-k", (g) => {
    const secret = shellSafe(g)
    return { secret, line: `openssl enc -aes-256-cbc -salt -pbkdf2 -k ${secret} -in db.sql -out db.sql.enc` }
  }),
  entry("keytool-storepass", (g) => {
    const secret = shellSafe(g)
    return { secret, line: `keytool -importcert -noprompt -alias ca -file ca.crt -keystore truststore.jks -storepass ${secret}` }
  }),
  entry("keytool-keypass-quoted", (g) => {
    const secret = shellSafe(g)
    return { secret, line: `keytool -genkeypair -alias app -keyalg RSA -keypass "${secret}" -keystore app.p12` }
  }),
  entry("ssh-keygen-N", (g) => {
    const secret = `${g(LOWER, 6)} ${g(LOWER, 7)} ${g(LOWER, 5)} ${g(DIGITS, 3)}`
    return { secret, line: `ssh-keygen -t ed25519 -C deploy@ci -N '${secret}' -f ~/.ssh/deploy_ed25519` }
  }),
  entry("ssh-keygen-P-attached", (g) => {
    const secret = shellSafe(g)
    return { secret, line: `ssh-keygen -p -P${secret} -N '' -f id_rsa` }
  }),
  entry("aws-configure-set-secret", (g) => {
    const secret = g(B64, 40)
    return { secret, line: `aws configure set aws_secret_access_key ${secret} --profile prod` }
  }),
  entry("aws-configure-set-session-token", (g) => {
    const secret = "IQoJb3JpZ2luX2Vj" + g(B64, 200)
    return { secret, line: `aws configure set profile.ci.aws_session_token "${secret}"` }
  }),
  entry("kubectl-from-literal", (g) => {
    const secret = shellSafe(g, 24)
    return { secret, line: `kubectl create secret generic stripe --from-literal=live=${secret} -n payments` }
  }),
  entry("gh-secret-set-body", (g) => {
    const secret = g(ALNUM, 40)
    return { secret, line: `gh secret set DEPLOY_WEBHOOK --body "${secret}" --repo acme/app` }
  }),
  entry("npm-config-set-authtoken", (g) => {
    const secret = g(HEX, 8) + "-" + g(HEX, 4) + "-" + g(HEX, 4) + "-" + g(HEX, 4) + "-" + g(HEX, 12)
    return { secret, line: `npm config set //npm.pkg.github.com/:_authToken ${secret}` }
  }),
  entry("zip-P", (g) => {
    const secret = shellSafe(g)
    return { secret, line: `zip -r -P ${secret} backup.zip db/` }
  }),
  entry("7z-p-attached", (g) => {
    const secret = shellSafe(g)
    return { secret, line: `7z a -p${secret} -mhe=on backup.7z data/` }
  }),
  entry("plink-pw", (g) => {
    const secret = shellSafe(g)
    return { secret, line: `plink -ssh -batch -pw ${secret} admin@10.0.0.7 "show running-config"` }
  }),
  entry("sqlplus-user-slash-password", (g) => {
    const secret = shellSafe(g)
    return { secret, line: `sqlplus -s scott/${secret}@//db.internal:1521/ORCL @report.sql` }
  }),
  entry("fish-set-gx-key", (g) => {
    const secret = g(ALNUM, 32)
    return { secret, line: `set -gx POSTHOG_KEY ${secret}` }
  }),
  entry("shell-call-json", (g) => {
    const secret = `${g(ALNUM, 8)} ${g(ALNUM, 9)}${g(DIGITS, 2)}`
    return { secret, line: `{"tool":"shell","args":{"command":${JSON.stringify(`sshpass -p "${secret}" ssh db1 'pg_dump shop'`)}}}` }
  }),
  entry("nested-shell-c", (g) => {
    const secret = shellSafe(g)
    return { secret, line: `ssh bastion "sudo -u postgres bash -c 'redis-cli -a ${secret} FLUSHALL'"` }
  }),
  // connection strings and URLs
  entry("odbc-pwd", (g) => {
    const secret = shellSafe(g, 18)
    return { secret, line: `Driver={ODBC Driver 18 for SQL Server};Server=tcp:db.internal,1433;Uid=app;Pwd=${secret};Encrypt=yes;` }
  }),
  entry("odbc-pwd-braced", (g) => {
    const secret = `${g(ALNUM, 8)};${g(ALNUM, 6)}=${g(DIGITS, 3)}`
    return { secret, line: `DSN=warehouse;UID=etl;PWD={${secret}};` }
  }),
  entry("ado-password-with-spaces", (g) => {
    const secret = `${g(ALNUM, 7)} ${g(ALNUM, 7)} ${g(DIGITS, 3)}`
    return { secret, line: `Server=db.internal;Database=shop;User Id=app;Password=${secret};TrustServerCertificate=True` }
  }),
  entry("url-token-as-user", (g) => {
    const secret = g(HEX, 40)
    return { secret, line: `git clone https://${secret}@github.com/acme/private-app.git` }
  }),
  entry("url-token-user-x-oauth-basic", (g) => {
    const secret = g(ALNUM, 36)
    return { secret, line: `remote: https://${secret}:x-oauth-basic@github.com/acme/app.git` }
  }),
  // configuration files
  entry("docker-config-auth", (g) => {
    const secret = btoa(`ci-bot:${password(g, 20)}`)
    return { secret, line: `{"auths": {"registry.example.com": {"auth": "${secret}"}}, "credsStore": ""}` }
  }),
  entry("npmrc-_auth", (g) => {
    const secret = btoa(`deploy:${password(g)}`)
    return { secret, line: `registry=https://npm.internal/\n_auth=${secret}\nalways-auth=true` }
  }),
  entry("npmrc-_authToken", (g) => {
    const secret = g(ALNUM, 36)
    return { secret, line: `//npm.internal/:_authToken=${secret}` }
  }),
  entry("yaml-auth", (g) => {
    const secret = btoa(`robot$ci:${password(g)}`)
    return { secret, line: `registries:\n  harbor.internal:\n    auth: ${secret}` }
  }),
  entry("jwk-private-d", (g) => {
    const secret = g(URLSAFE, 43)
    return { secret, line: `{"kty":"EC","crv":"P-256","x":"${g(URLSAFE, 43)}","y":"${g(URLSAFE, 43)}","d":"${secret}","kid":"sig-2024"}` }
  }),
  entry("jwk-private-d-pretty", (g) => {
    const secret = g(URLSAFE, 342)
    return { secret, line: `{\n  "d": "${secret}",\n  "e": "AQAB",\n  "kty": "RSA",\n  "n": "${g(URLSAFE, 60)}"\n}` }
  }),
  entry("putty-private-lines", (g) => {
    const body = [g(B64, 64), g(B64, 64), g(B64, 64), g(B64, 20) + "=="]
    const secret = body.join("\n")
    return {
      secret,
      line: `PuTTY-User-Key-File-3: ssh-rsa\nEncryption: none\nComment: deploy\nPublic-Lines: 1\nAAAAB3NzaC1yc2EAAAADAQABAAAAgQ\nPrivate-Lines: 4\n${secret}\nPrivate-MAC: ${g(HEX, 64)}`,
    }
  }),
  entry("export-writekey", (g) => {
    const secret = g(ALNUM, 32)
    return { secret, line: `export SEGMENT_WRITEKEY=${secret}` }
  }),
  entry("export-vendor-key-quoted", (g) => {
    const secret = g(HEX, 32)
    return { secret, line: `export MIXPANEL_KEY="${secret}"` }
  }),
  entry("dotenv-vendor-key", (g) => {
    const secret = g(ALNUM, 28)
    return { secret, line: `NODE_ENV=production\nALGOLIA_ADMIN_KEY=${secret}\nPORT=3000` }
  }),
  entry("vault-login-token", (g) => {
    const secret = g(ALNUM, 26)
    return { secret, line: `vault login -address https://vault.internal:8200 ${secret}` }
  }),
  entry("export-bare-pass", (g) => {
    const secret = g(ALNUM, 20)
    return { secret, line: `export PASS=${secret}` }
  }),
  entry("dotenv-bare-pass-quoted", (g) => {
    const secret = password(g, 18)
    return { secret, line: `USER=deploy\nPASS='${secret}'\nHOST=db` }
  }),
  // private keys as tools print them
  entry("pem-cat-A", (g) => {
    const secret = pem(g, "RSA PRIVATE KEY", 8, "MIIEowIBAAKCAQEA").replace(/\n/g, "$\n") + "$"
    return { secret, line: `$ cat -A deploy/id_rsa\n${secret}\n` }
  }),
  entry("pem-sed-n-l", (g) => {
    const secret = sedL(pem(g, "OPENSSH PRIVATE KEY", 6, "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ", 70))
    return { secret, line: `$ sed -n l ~/.ssh/id_ed25519\n${secret}\n` }
  }),
  entry("pem-grep-rn", (g) => {
    const { printed, body } = prefixed(pem(g, "EC PRIVATE KEY", 4, "MHcCAQEEI"), (n) => `tls.key:${n}:`)
    return { secret: body, line: `$ grep -n . tls.key README.md\n${printed}\nREADME.md:1:# keys` }
  }),
  entry("pem-cat-n", (g) => {
    const { printed, body } = prefixed(pem(g, "PRIVATE KEY", 6, "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC"), (n) => `${String(n).padStart(6)}\t`)
    return { secret: body, line: `$ cat -n server.key\n${printed}` }
  }),
]

/** Lines that look like the kinds above and must come out of redaction unchanged. */
export const TYPED_NEAR_MISSES: readonly string[] = [
  "docker run -p 8080:80 -p 443:443 nginx:1.27",
  "mysql -u root -p shop < dump.sql",
  "curl -u deploy https://jenkins.internal/api/json",
  "openssl rsa -in enc.key -passin env:KEY_PASSPHRASE -passout file:/run/secrets/pw",
  'sshpass -p "$SSHPASS" ssh deploy@10.0.0.5 uptime',
  "ssh-keygen -t ed25519 -N '' -f ~/.ssh/id_ed25519",
  "htpasswd -c /etc/nginx/.htpasswd admin",
  "aws configure set region eu-west-1 --profile prod",
  "redis-cli -h cache.internal --askpass ping",
  "AKIAIOSFODNN7EXAMPLE and wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY are AWS's documented examples",
  "aws_access_key_id = AKIAIOSFODNN7EXAMPLE",
  "git clone https://deploy@git.example.com/acme/app.git",
  "https://x-access-token@github.com/acme/app.git",
  "PWD=/work/app OLDPWD=/tmp SHLVL=1",
  '{"author": "Jane Doe", "auth": "none", "authority": "https://login.example.com"}',
  "auth: basic",
  '{"kty":"RSA","e":"AQAB","n":"0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCzFdl0"}',
  "Public-Lines: 6",
  "export PATH=/usr/local/bin:$PATH EDITOR=vim",
  "export SORT_KEY",
  "Server=db.internal;Database=shop;Integrated Security=true;",
  "set -euo pipefail",
]
