// Fake secrets of many kinds, each in a realistic log line, plus near-miss lines that must survive
// redaction byte for byte. Reusable: an integration test can feed CORPUS through a real run and grep
// the database for `secret`. Values are generated from a fixed seed (stable across runs) instead of
// written out, so the repository holds no string a secret scanner would flag as a live credential.

import { ALNUM, B64, base64url, BECH32, DIGITS, entry, HEX, LOWER, password, pem, UPPER, URLSAFE, type CorpusEntry } from "./corpus-gen.ts"
import { TYPED_CORPUS, TYPED_NEAR_MISSES } from "./corpus-typed.ts"

export type { CorpusEntry } from "./corpus-gen.ts"

export const CORPUS: readonly CorpusEntry[] = [
  // cloud providers
  entry("aws-access-key-id", (g) => {
    const secret = "AKIA" + g(UPPER + "234567", 16)
    return { secret, line: `2024-05-01T10:00:00Z INFO using credentials ${secret} from profile default` }
  }),
  entry("aws-sts-access-key-id", (g) => {
    const secret = "ASIA" + g(UPPER + "234567", 16)
    return { secret, line: `export AWS_ACCESS_KEY_ID=${secret}` }
  }),
  entry("aws-secret-access-key", (g) => {
    const secret = g(B64, 40)
    return { secret, line: `aws_secret_access_key = ${secret}` }
  }),
  entry("aws-session-token", (g) => {
    const secret = "FwoGZXIvYXdzE" + g(B64, 280)
    return { secret, line: `    "SessionToken": "${secret}",` }
  }),
  entry("gcp-service-account-key", (g) => {
    const secret = pem(g, "PRIVATE KEY", 25, "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC").replace(/\n/g, "\\n") + "\\n"
    return {
      secret,
      line: `{"type": "service_account", "project_id": "demo-project", "private_key_id": "${g(HEX, 40)}", "private_key": "${secret}", "client_email": "ci@demo-project.iam.gserviceaccount.com"}`,
    }
  }),
  entry("gcp-api-key", (g) => {
    const secret = "AIza" + g(URLSAFE, 35)
    return { secret, line: `GET https://maps.googleapis.com/maps/api/geocode/json?address=Main+St&key=${secret} 200 OK` }
  }),
  entry("google-oauth-client-secret", (g) => {
    const secret = "GOCSPX-" + g(URLSAFE, 28)
    return { secret, line: `{"installed":{"client_id":"1234-abc.apps.googleusercontent.com","client_secret":"${secret}"}}` }
  }),
  entry("google-oauth-access-token", (g) => {
    const secret = "ya29." + g(URLSAFE, 150)
    return { secret, line: `curl -s -H "Authorization: Bearer ${secret}" https://www.googleapis.com/drive/v3/files` }
  }),
  entry("azure-storage-account-key", (g) => {
    const secret = g(B64, 86) + "=="
    return {
      secret,
      line: `DefaultEndpointsProtocol=https;AccountName=demostore;AccountKey=${secret};EndpointSuffix=core.windows.net`,
    }
  }),
  entry("azure-ad-client-secret", (g) => {
    const secret = g(ALNUM, 3) + g(DIGITS, 1) + "Q~" + g(ALNUM + "_~.-", 34)
    return { secret, line: `az login --service-principal -u 7f3c2a1e-0000-4a5b-9c8d-112233445566 -p ${secret} --tenant contoso.onmicrosoft.com` }
  }),
  entry("azure-sas-token", (g) => {
    const secret = g(ALNUM + "%", 43) + "%3D"
    return {
      secret,
      line: `GET https://demostore.blob.core.windows.net/backups/db.tar?sv=2022-11-02&ss=b&srt=o&sp=r&se=2030-01-01T00:00:00Z&sig=${secret} 200`,
    }
  }),
  entry("azure-service-bus-key", (g) => {
    const secret = g(B64, 43) + "="
    return {
      secret,
      line: `Endpoint=sb://demo.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=${secret}`,
    }
  }),
  entry("alibaba-access-key-id", (g) => {
    const secret = "LTAI" + g(ALNUM, 20)
    return { secret, line: `aliyun configure set --access-key-id ${secret} --region cn-hangzhou` }
  }),
  entry("digitalocean-token", (g) => {
    const secret = "dop_v1_" + g(HEX, 64)
    return { secret, line: `doctl auth init --access-token ${secret}` }
  }),
  // source hosting and registries
  entry("github-pat-classic", (g) => {
    const secret = "ghp_" + g(ALNUM, 36)
    return { secret, line: `remote: Invalid username or password. fatal: Authentication failed using ${secret}` }
  }),
  entry("github-oauth-token", (g) => {
    const secret = "gho_" + g(ALNUM, 36)
    return { secret, line: `github.com:\n    oauth_token: ${secret}\n    user: octocat` }
  }),
  entry("github-app-installation-token", (g) => {
    const secret = "ghs_" + g(ALNUM, 36)
    return { secret, line: `git clone https://x-access-token:${secret}@github.com/acme/app.git` }
  }),
  entry("github-user-to-server-token", (g) => {
    const secret = "ghu_" + g(ALNUM, 36)
    return { secret, line: `[debug] gh api /user using ${secret}` }
  }),
  entry("github-fine-grained-pat", (g) => {
    const secret = "github_pat_" + g(ALNUM, 22) + "_" + g(ALNUM, 59)
    return { secret, line: `echo ${secret} | gh auth login --with-token` }
  }),
  entry("gitlab-pat", (g) => {
    const secret = "glpat-" + g(URLSAFE, 20)
    return { secret, line: `curl --header "PRIVATE-TOKEN: ${secret}" https://gitlab.example.com/api/v4/projects` }
  }),
  entry("gitlab-runner-token", (g) => {
    const secret = "glrt-" + g(URLSAFE, 20)
    return { secret, line: `gitlab-runner register --non-interactive --url https://gitlab.example.com --token ${secret}` }
  }),
  entry("npm-token", (g) => {
    const secret = "npm_" + g(ALNUM, 36)
    return { secret, line: `//registry.npmjs.org/:_authToken=${secret}` }
  }),
  entry("pypi-token", (g) => {
    const secret = "pypi-AgEIcHlwaS5vcmc" + g(URLSAFE, 70)
    return { secret, line: `twine upload -u __token__ -p ${secret} dist/*` }
  }),
  entry("rubygems-key", (g) => {
    const secret = "rubygems_" + g(HEX, 48)
    return { secret, line: `:rubygems_api_key: ${secret}` }
  }),
  entry("docker-hub-token", (g) => {
    const secret = "dckr_pat_" + g(URLSAFE, 27)
    return { secret, line: `echo ${secret} | docker login --username ci --password-stdin` }
  }),
  entry("atlassian-api-token", (g) => {
    const secret = "ATATT3xFfGF0" + g(URLSAFE, 170) + "=" + g(HEX.toUpperCase(), 8)
    return { secret, line: `jira: using token ${secret} for ci@example.com` }
  }),
  // chat and messaging
  entry("slack-bot-token", (g) => {
    const secret = `xoxb-${g(DIGITS, 12)}-${g(DIGITS, 13)}-${g(ALNUM, 24)}`
    return { secret, line: `slack: posting to #deploys with ${secret}` }
  }),
  entry("slack-user-token", (g) => {
    const secret = `xoxp-${g(DIGITS, 12)}-${g(DIGITS, 12)}-${g(DIGITS, 13)}-${g(HEX, 32)}`
    return { secret, line: `SLACK_USER=${secret}` }
  }),
  entry("slack-workspace-token", (g) => {
    const secret = `xoxa-2-${g(DIGITS, 12)}-${g(DIGITS, 12)}-${g(DIGITS, 13)}-${g(HEX, 64)}`
    return { secret, line: `installing app for workspace, token=${secret}` }
  }),
  entry("slack-legacy-token", (g) => {
    const secret = `xoxs-${g(DIGITS, 11)}-${g(DIGITS, 11)}-${g(DIGITS, 12)}-${g(HEX, 64)}`
    return { secret, line: `[legacy] slack client ${secret} deprecated` }
  }),
  entry("slack-app-token", (g) => {
    const secret = `xapp-1-A${g(UPPER + DIGITS, 10)}-${g(DIGITS, 13)}-${g(HEX, 64)}`
    return { secret, line: `socket mode connecting with ${secret}` }
  }),
  entry("slack-webhook", (g) => {
    const secret = `T${g(UPPER + DIGITS, 8)}/B${g(UPPER + DIGITS, 10)}/${g(ALNUM, 24)}`
    return { secret, line: `POST https://hooks.slack.com/services/${secret} 200 ok` }
  }),
  entry("discord-bot-token", (g) => {
    const secret = `${btoa("1098765432" + g(DIGITS, 8))}.${g(URLSAFE, 6)}.${g(URLSAFE, 38)}`
    return { secret, line: `client.login("${secret}")` }
  }),
  entry("discord-webhook", (g) => {
    const secret = g(URLSAFE, 68)
    return { secret, line: `notify: https://discord.com/api/webhooks/1234567890123456789/${secret}` }
  }),
  entry("telegram-bot-token", (g) => {
    const secret = `${g(DIGITS, 10)}:AA${g(URLSAFE, 33)}`
    return { secret, line: `GET https://api.telegram.org/bot${secret}/sendMessage?chat_id=42 200` }
  }),
  entry("twilio-api-key", (g) => {
    const secret = "SK" + g(HEX, 32)
    return { secret, line: `Using Twilio API key ${secret} for account AC${g(HEX, 32)}` }
  }),
  entry("sendgrid-api-key", (g) => {
    const secret = `SG.${g(URLSAFE, 22)}.${g(URLSAFE, 43)}`
    return { secret, line: `mail: sendgrid client created (key ${secret})` }
  }),
  entry("mailgun-api-key", (g) => {
    const secret = "key-" + g(HEX, 32)
    return { secret, line: `curl -s --user 'api:${secret}' https://api.mailgun.net/v3/mg.example.com/messages` }
  }),
  entry("mailchimp-api-key", (g) => {
    const secret = g(HEX, 32) + "-us14"
    return { secret, line: `mailchimp.setConfig({ apiKey: "${secret}", server: "us14" })` }
  }),
  // payments and commerce
  entry("stripe-secret-key", (g) => {
    const secret = "sk_live_" + g(ALNUM, 99)
    return { secret, line: `stripe.Customer.create(...) api_key=${secret}` }
  }),
  entry("stripe-restricted-key", (g) => {
    const secret = "rk_live_" + g(ALNUM, 24)
    return { secret, line: `Loaded Stripe restricted key ${secret} (scopes: charges:read)` }
  }),
  entry("stripe-webhook-secret", (g) => {
    const secret = "whsec_" + g(ALNUM, 32)
    return { secret, line: `> Ready! Your webhook signing secret is ${secret} (^C to quit)` }
  }),
  entry("square-access-token", (g) => {
    const secret = "EAAA" + g(URLSAFE, 60)
    return { secret, line: `square: environment=production token ${secret}` }
  }),
  entry("square-oauth-token", (g) => {
    const secret = "sq0atp-" + g(URLSAFE, 22)
    return { secret, line: `square legacy token ${secret} expires in 30d` }
  }),
  entry("shopify-access-token", (g) => {
    const secret = "shpat_" + g(HEX, 32)
    return { secret, line: `X-Shopify-Access-Token: ${secret}` }
  }),
  // AI providers
  entry("openai-legacy-key", (g) => {
    const secret = "sk-" + g(ALNUM, 20) + "T3BlbkFJ" + g(ALNUM, 20)
    return { secret, line: `openai.api_key = "${secret}"` }
  }),
  entry("openai-project-key", (g) => {
    const secret = "sk-proj-" + g(URLSAFE, 74) + "T3BlbkFJ" + g(URLSAFE, 74)
    return { secret, line: `Error: 401 Incorrect API key provided: ${secret}. You can find your API key at https://platform.openai.com` }
  }),
  entry("anthropic-api-key", (g) => {
    const secret = "sk-ant-api03-" + g(URLSAFE, 93) + "AA"
    return { secret, line: `anthropic: request failed with key ${secret} (401 authentication_error)` }
  }),
  entry("huggingface-token", (g) => {
    const secret = "hf_" + g(UPPER + LOWER, 34)
    return { secret, line: `huggingface-cli login --token ${secret} --add-to-git-credential` }
  }),
  entry("groq-api-key", (g) => {
    const secret = "gsk_" + g(ALNUM, 52)
    return { secret, line: `groq client initialised with ${secret}` }
  }),
  entry("xai-api-key", (g) => {
    const secret = "xai-" + g(ALNUM, 80)
    return { secret, line: `XAI key in use: ${secret}` }
  }),
  entry("perplexity-api-key", (g) => {
    const secret = "pplx-" + g(ALNUM, 48)
    return { secret, line: `perplexity: ${secret} rate limited, retrying in 2s` }
  }),
  entry("replicate-token", (g) => {
    const secret = "r8_" + g(ALNUM, 37)
    return { secret, line: `replicate run stability-ai/sdxl with ${secret}` }
  }),
  // platforms and infrastructure
  entry("heroku-api-key", (g) => {
    const secret = "HRKU-AA" + g(URLSAFE, 58)
    return { secret, line: `heroku: logged in, key ${secret}` }
  }),
  entry("databricks-token", (g) => {
    const secret = "dapi" + g(HEX, 32)
    return { secret, line: `databricks configure --host https://adb-123.azuredatabricks.net (token ${secret})` }
  }),
  entry("vault-token", (g) => {
    const secret = "hvs." + g(URLSAFE, 90)
    return { secret, line: `vault: authenticated, token ${secret} policies=[default]` }
  }),
  entry("doppler-token", (g) => {
    const secret = "dp.pt." + g(ALNUM, 43)
    return { secret, line: `doppler configure set token ${secret} --scope /` }
  }),
  entry("terraform-cloud-token", (g) => {
    const secret = g(ALNUM, 14) + ".atlasv1." + g(URLSAFE, 67)
    return { secret, line: `credentials "app.terraform.io" { value = ${secret} }` }
  }),
  entry("pulumi-token", (g) => {
    const secret = "pul-" + g(HEX, 40)
    return { secret, line: `pulumi login using ${secret}` }
  }),
  entry("fly-token", (g) => {
    const secret = "fo1_" + g(URLSAFE, 43)
    return { secret, line: `flyctl deploy -t ${secret}` }
  }),
  entry("linear-api-key", (g) => {
    const secret = "lin_api_" + g(ALNUM, 40)
    return { secret, line: `linear: querying issues as ${secret}` }
  }),
  entry("notion-token", (g) => {
    const secret = "ntn_" + g(DIGITS, 11) + g(ALNUM, 35)
    return { secret, line: `notion: integration ${secret} has no access to page` }
  }),
  entry("supabase-token", (g) => {
    const secret = "sbp_" + g(HEX, 40)
    return { secret, line: `supabase link --project-ref abcd (access ${secret})` }
  }),
  entry("tailscale-auth-key", (g) => {
    const secret = "tskey-auth-k" + g(ALNUM, 11) + "CNTRL-" + g(ALNUM, 33)
    return { secret, line: `tailscale up --authkey=${secret} --hostname=ci-runner` }
  }),
  entry("postman-api-key", (g) => {
    const secret = `PMAK-${g(HEX, 24)}-${g(HEX, 34)}`
    return { secret, line: `newman run collection.json --postman-api-key ${secret}` }
  }),
  entry("grafana-service-account-token", (g) => {
    const secret = `glsa_${g(ALNUM, 32)}_${g(HEX, 8)}`
    return { secret, line: `grafana: provisioning dashboards with ${secret}` }
  }),
  entry("sentry-user-token", (g) => {
    const secret = "sntryu_" + g(HEX, 64)
    return { secret, line: `sentry-cli releases new 1.2.3 (auth ${secret})` }
  }),
  entry("newrelic-user-key", (g) => {
    const secret = "NRAK-" + g(UPPER + DIGITS, 27)
    return { secret, line: `newrelic: NerdGraph query with ${secret}` }
  }),
  entry("openshift-token", (g) => {
    const secret = "sha256~" + g(URLSAFE, 43)
    return { secret, line: `oc login --token=${secret} --server=https://api.cluster.example.com:6443` }
  }),
  entry("age-secret-key", (g) => {
    const secret = "AGE-SECRET-KEY-1" + g(BECH32, 58)
    return { secret, line: `# created: 2024-05-01\n# public key: age1${g("qpzry9x8gf2tvdw0s3jn54khce6mua7l", 58)}\n${secret}` }
  }),
  entry("jwt", (g) => {
    const payload = base64url(JSON.stringify({ sub: g(DIGITS, 10), name: "Jane Doe", iat: 1716000000 }))
    const secret = `eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.${payload}.${g(URLSAFE, 43)}`
    return { secret, line: `session restored: cookie jwt=${secret}; path=/` }
  }),
  // private key blocks
  entry("pem-rsa", (g) => {
    const secret = pem(g, "RSA PRIVATE KEY", 24, "MIIEowIBAAKCAQEA")
    return { secret, line: `$ cat deploy/id_rsa\n${secret}\n$ ` }
  }),
  entry("pem-ec", (g) => {
    const secret = pem(g, "EC PRIVATE KEY", 3, "MHcCAQEEI")
    return { secret, line: `writing new private key to 'tls.key'\n${secret}\n` }
  }),
  entry("pem-openssh", (g) => {
    const secret = pem(g, "OPENSSH PRIVATE KEY", 6, "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ", 70)
    return { secret, line: `${secret}\n` }
  }),
  entry("pem-encrypted-rsa", (g) => {
    const body = pem(g, "RSA PRIVATE KEY", 12, "MIIEpQIBAAKCAQEA").split("\n")
    const secret = [body[0], "Proc-Type: 4,ENCRYPTED", `DEK-Info: AES-128-CBC,${g(HEX, 32).toUpperCase()}`, "", ...body.slice(1)].join("\n")
    return { secret, line: `openssl output:\n${secret}` }
  }),
  entry("pem-pgp", (g) => {
    const secret = pem(g, "PGP PRIVATE KEY BLOCK", 10, "lQOYBGY").replace("-----\n", "-----\n\n")
    return { secret, line: `gpg --export-secret-keys --armor ci@example.com\n${secret}` }
  }),
  entry("pem-pkcs8-escaped-env", (g) => {
    const secret = pem(g, "PRIVATE KEY", 8, "MIIEvgIBADANBgkqhkiG9w0BAQEFAASC").replace(/\n/g, "\\n")
    return { secret, line: `PRIVATE_KEY="${secret}"` }
  }),
  entry("pem-double-escaped", (g) => {
    const secret = pem(g, "EC PRIVATE KEY", 3, "MHcCAQEEI").replace(/\n/g, "\\\\n")
    return { secret, line: `{"output":"{\\"key\\":\\"${secret}\\"}"}` }
  }),
  entry("kubeconfig-client-key-data", (g) => {
    const secret = btoa(pem(g, "RSA PRIVATE KEY", 4, "MIIEowIBAAKCAQEA"))
    return { secret, line: `    client-key-data: ${secret}` }
  }),
  // passwords in URLs
  entry("postgres-url-password", (g) => {
    const secret = password(g)
    return { secret, line: `DATABASE_URL=postgres://app:${secret}@db.internal:5432/app?sslmode=require` }
  }),
  entry("mysql-url-password", (g) => {
    const secret = password(g)
    return { secret, line: `Connecting to mysql://root:${secret}@127.0.0.1:3306/shop ...` }
  }),
  entry("mongodb-srv-url-password", (g) => {
    const secret = password(g, 20)
    return { secret, line: `MongoServerError: bad auth for mongodb+srv://admin:${secret}@cluster0.ab1cd.mongodb.net/?retryWrites=true` }
  }),
  entry("redis-url-password", (g) => {
    const secret = password(g, 24)
    return { secret, line: `REDIS_URL="redis://:${secret}@cache.internal:6379/0"` }
  }),
  entry("amqp-url-password", (g) => {
    const secret = password(g)
    return { secret, line: `celery worker --broker amqps://worker:${secret}@rabbit.internal:5671/jobs` }
  }),
  entry("https-url-password", (g) => {
    const secret = password(g, 18)
    return { secret, line: `git remote add origin https://deploy:${secret}@git.example.com/acme/app.git` }
  }),
  // headers
  entry("authorization-basic", (g) => {
    const secret = btoa(`svc-backup:${password(g)}`)
    return { secret, line: `> Authorization: Basic ${secret}` }
  }),
  entry("authorization-bearer", (g) => {
    const secret = g(ALNUM, 40)
    return { secret, line: `curl -H 'Authorization: Bearer ${secret}' https://api.example.com/v1/me` }
  }),
  entry("bearer-in-prose", (g) => {
    const secret = g(ALNUM, 12) + "." + g(ALNUM, 20)
    return { secret, line: `retrying request with bearer ${secret} after 401` }
  }),
  entry("x-api-key-header", (g) => {
    const secret = g(ALNUM, 40)
    return { secret, line: `x-api-key: ${secret}` }
  }),
  entry("cookie-header", (g) => {
    const secret = g(HEX, 48)
    return { secret, line: `Cookie: sessionid=${secret}; theme=dark` }
  }),
  // assignments in text, JSON and YAML, and password flags
  entry("password-assignment-text", (g) => {
    const secret = password(g)
    return { secret, line: `db connect host=db.internal user=app password=${secret} sslmode=require` }
  }),
  entry("password-env-file", (g) => {
    const secret = password(g, 20)
    return { secret, line: `DATABASE_PASSWORD=${secret}` }
  }),
  entry("secret-yaml", (g) => {
    const secret = password(g, 32)
    return { secret, line: `  client_secret: ${secret}` }
  }),
  entry("password-json-passphrase", (g) => {
    const secret = `${g(LOWER, 7)} ${g(LOWER, 6)} ${g(LOWER, 8)} ${g(DIGITS, 3)}`
    return { secret, line: `{"username": "admin", "password": "${secret}", "remember": true}` }
  }),
  entry("token-yaml-quoted", (g) => {
    const secret = g(ALNUM, 32)
    return { secret, line: `api_token: '${secret}'` }
  }),
  entry("access-token-query", (g) => {
    const secret = g(URLSAFE, 40)
    return { secret, line: `GET /graph/me?fields=id,name&access_token=${secret} HTTP/1.1` }
  }),
  entry("xml-password", (g) => {
    const secret = password(g)
    return { secret, line: `<datasource><user>app</user><password>${secret}</password></datasource>` }
  }),
  entry("password-flag", (g) => {
    const secret = password(g)
    return { secret, line: `helm repo add internal https://charts.example.com --username ci --password ${secret}` }
  }),
  entry("mysql-p-flag", (g) => {
    const secret = password(g)
    return { secret, line: `mysql -h db.internal -u root -p${secret} shop < dump.sql` }
  }),
  entry("docker-login-p", (g) => {
    const secret = password(g, 20)
    return { secret, line: `docker login -u ci -p ${secret} registry.example.com` }
  }),
  entry("sshpass", (g) => {
    const secret = password(g)
    return { secret, line: `sshpass -p '${secret}' ssh deploy@10.0.0.5 'systemctl restart app'` }
  }),
  entry("netrc", (g) => {
    const secret = password(g)
    return { secret, line: `machine api.example.com login deploy password ${secret}` }
  }),
  // how people type credentials on command lines and in files (corpus-typed.ts)
  ...TYPED_CORPUS,
]

/** Lines that look a little like secrets and must come out of redaction unchanged. */
export const NEAR_MISSES: readonly string[] = [
  "commit 3f2a9c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f",
  "Merge pull request #42 from acme/fix-login (a1b2c3d)",
  "request_id=550e8400-e29b-41d4-a716-446655440000 status=200 duration=12ms",
  `<img src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==">`,
  "Please enter your password to continue.",
  "Password: must be at least 12 characters long",
  "The password field is required.",
  "Forgot your password? Reset it from the login page.",
  "Bearer tokens are described in RFC 6750.",
  "basic functionality works; see the basic usage guide",
  "task-runner: risk-assessment done, ask-user skipped, sk-learn installed",
  "disk-usage: 42% of /dev/sda1",
  "/usr/local/lib/node_modules/npm/bin/npm-cli.js",
  "./src/tokens/tokenizer.ts:12:3",
  "version 1.2.3-beta.4+build.5 released",
  "color: #ff8800; background: #1e1e1e",
  "image: ghcr.io/acme/app@sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
  "integrity sha512-z4PhNX7vuL3xVChQ1m2AB9Yg5AULVxXcg/SpIdNs6c5H0NE8XYXysP+DGNKHfuwvY7kxvUR8uBxfhNdPYvPrsg==",
  "usage: max_tokens=4096 input_tokens: 1532 output_tokens: 211 tokenizer=cl100k_base",
  "secret_name=prod-db-credentials rotated",
  "GET https://example.com/api/v1/users?page=2 200 (http://localhost:8080/health ok)",
  "ssh://git@github.com/acme/app.git and git@github.com:acme/app.git",
  "https://example.com/home/about and https://docs.example.com/Users/guide",
  `{"password": null, "token": "", "secret": false}`,
  "password: ${DB_PASSWORD}",
  `token: "{{ .Values.token }}"`,
  "model claude-3-5-sonnet-20241022 replied in 1234ms",
  "sha1: da39a3ee5e6b4b0d3255bfef95601890afd80709",
  "-----BEGIN CERTIFICATE-----\nMIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBaMQswCQYDVQQGEwJJ\n-----END CERTIFICATE-----",
  "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQC7vbqajDhA deploy@ci",
  "AKIAexample is too short to be a key; ghp_ is GitHub's prefix",
  "fe80::1ff:fe23:4567:890a and 192.168.1.10:5432",
  "cd /home && ls /Users",
  "C:\\Program Files\\nodejs\\node.exe",
  "--password-file /run/secrets/db_password",
  "tests: 12 passed, pass: 12, fail: 0",
  "xoxo, the team",
  "The key: value pairs are sorted; primary_key=id; sort_key=created_at",
  "token = await fetchToken()",
  "if (password === confirmPassword) return ok",
  ...TYPED_NEAR_MISSES,
]

const ORDINARY = NEAR_MISSES.flatMap((l) => [l, JSON.stringify(l).slice(1, -1)])

/** True when any 12-character piece of `secret` (or all of a shorter one) is still in `text`. Pieces
 *  that ordinary text contains too (a private key and a certificate share their ASN.1 header) prove
 *  nothing and are skipped. */
export function leaked(text: string, secret: string): boolean {
  const n = Math.min(12, secret.length)
  for (let i = 0; i + n <= secret.length; i++) {
    const piece = secret.slice(i, i + n)
    if (text.includes(piece) && !ORDINARY.some((o) => o.includes(piece))) return true
  }
  return false
}
