// Where credentials live on a machine: files and folders a command has no business reading. One list,
// used twice: the policy's decision treats a path under any of them as `risk.paths` at level high (a
// read sends the secret to the model with the output), and the sandbox makes them look empty. A policy
// can add to it (`risk.paths`, `sandbox.hidden`), never take from it.

/** `~` is the user's home; a folder covers everything below it. Literal paths only (no globs). */
export const CREDENTIAL_PATHS: readonly string[] = [
  // keys and cloud credentials
  "~/.ssh", "~/.aws", "~/.gnupg", "~/.config/gcloud", "~/.kube", "~/.docker", "~/.azure", "~/.oci",
  "~/.netrc", "~/.git-credentials", "~/.config/gh", "~/.config/hub", "~/.password-store", "~/.vault-token",
  "~/.config/op", "~/.local/share/keyrings", "~/.config/rclone", "~/.s3cfg", "~/.boto", "~/.passwd-s3fs",
  // git's credential store in its XDG place (git credential-store reads it as well as ~/.git-credentials),
  // GitLab's CLI (its config.yml holds the tokens)
  "~/.config/git/credentials", "~/.config/glab-cli",
  // tokens Node CLIs keep through the configstore package (firebase-tools, vercel, ...)
  "~/.config/configstore",
  // package registries
  "~/.npmrc", "~/.pypirc", "~/.gem/credentials", "~/.local/share/gem/credentials", "~/.cargo/credentials", "~/.cargo/credentials.toml",
  "~/.terraform.d/credentials.tfrc.json",
  // databases
  "~/.pgpass", "~/.my.cnf", "~/.mylogin.cnf",
  // other agents' logins
  "~/.claude/.credentials.json", "~/.codex/auth.json", "~/.gemini/oauth_creds.json", "~/.config/github-copilot",
  "~/.local/share/opencode/auth.json",
  // agents' settings holding MCP servers' tokens (`claude mcp add -e TOKEN=..` stores it in ~/.claude.json)
  "~/.claude.json", "~/.gemini/settings.json", "~/.cursor/mcp.json",
  // container registries (podman, buildah, skopeo: the format of ~/.docker/config.json), model hubs
  "~/.config/containers/auth.json", "~/.cache/huggingface/token", "~/.huggingface/token", "~/.kaggle/kaggle.json",
  // private keys that decrypt a repository's sops/age secrets
  "~/.config/sops/age/keys.txt", "~/.age",
  // cloud and platform CLIs' logins
  "~/.pulumi/credentials.json", "~/.config/doctl/config.yaml", "~/.config/hcloud/cli.toml", "~/.fly/config.yml",
  "~/.wrangler/config/default.toml", "~/.local/share/com.vercel.cli/auth.json", "~/.config/netlify/config.json",
  "~/.config/stripe/config.toml", "~/.databrickscfg", "~/.snowsql/config", "~/.dbt/profiles.yml", "~/.bluemix/config.json",
  "~/.minikube", "~/.config/Bitwarden CLI/data.json",
  // tunnel, CI, error-tracking and data-warehouse CLIs' tokens; Cloud Foundry's; atuin's sync key; a
  // user's own GitLab runner (its runner tokens)
  "~/.config/ngrok", "~/.ngrok2", "~/.circleci/cli.yml", "~/.sentryclirc", "~/.snowflake", "~/.cf/config.json",
  "~/.config/atuin/key", "~/.config/gitlab-runner", "~/.gitlab-runner/config.toml",
  // Emacs/Gnus auth-source, Docker's old login file, more platform CLIs' tokens
  "~/.authinfo", "~/.authinfo.gpg", "~/.dockercfg", "~/.supabase/access-token", "~/.config/linode-cli",
  "~/.railway/config.json", "~/.aliyun/config.json",
  // Tencent Cloud's CLI (its *.credential files), Turso's CLI (settings.json holds the token)
  "~/.tccli", "~/.config/turso",
  // object-store, FTP, artifact-registry, LLM and backup clients' keys; Teleport's certificates; a
  // Python keyring's file backend; mail clients' and NSS's password databases; IDE/database tools' saved logins
  "~/.mc", "~/.config/filezilla", "~/.cache/huggingface/stored_tokens", "~/.pub-cache/credentials.json", "~/.jfrog",
  "~/.config/io.datasette.llm/keys.json", "~/.tsh", "~/.config/borg/keys", "~/.config/scw", "~/.local/share/python_keyring",
  "~/.config/tea", "~/.tofurc", "~/.vultr-cli.yaml", "~/.travis/config.yml", "~/.hex/hex.config", "~/.pause",
  "~/.continue/config.json", "~/.aider.conf.yml", "~/.thunderbird", "~/.pki/nssdb", "~/.local/share/DBeaverData",
  "~/.config/JetBrains", "~/.cassandra/cqlshrc", "~/.config/cachix", "~/.config/hut", "~/.ovh.conf", "~/.config/exoscale",
  // saved passwords of svn, curl, wget and mail clients
  "~/.subversion/auth", "~/.curlrc", "~/.wgetrc", "~/.msmtprc", "~/.fetchmailrc",
  // what people typed (passwords given as arguments end up here)
  "~/.bash_history", "~/.zsh_history", "~/.history", "~/.psql_history", "~/.mysql_history", "~/.python_history",
  "~/.sqlite_history", "~/.rediscli_history", "~/.node_repl_history", "~/.local/share/fish/fish_history",
  "~/.irb_history", "~/.pry_history", "~/.mongosh", "~/.dbshell",
  "~/.local/share/atuin",
  // other shells' and editors' histories (zsh setups, ksh, busybox ash, macOS per-session bash, vim and neovim)
  "~/.zhistory", "~/.histfile", "~/.sh_history", "~/.ksh_history", "~/.mksh_history", "~/.ash_history", "~/.local/state/zsh",
  "~/.config/zsh/.zsh_history", "~/.config/fish/fish_history", "~/.bash_sessions", "~/.local/share/nvim/shada",
  "~/.local/state/nvim/shada", "~/.viminfo",
  // REPL histories and fish's universal variables (`set -Ux GITHUB_TOKEN …` persists there)
  "~/.config/fish/fish_variables", "~/.Rhistory", "~/.julia/logs/repl_history.jl", "~/.ghc/ghci_history", "~/.scala_history",
  "~/.ipython/profile_default/history.sqlite", "~/.lesshst",
  // API keys and sessions of CLIs and remote editors
  "~/.wakatime.cfg", "~/.twilio-cli/config.json", "~/.expo/state.json", "~/.config/goose/config.yaml",
  "~/.vscode-server/data/User/globalStorage/state.vscdb", "~/.cursor-server/data/User/globalStorage/state.vscdb",
  // browsers: saved passwords and session cookies
  "~/.mozilla", "~/.config/google-chrome", "~/.config/chromium", "~/.config/BraveSoftware", "~/.config/microsoft-edge",
  // the machine's own secrets (readable when ccode runs as root)
  "/etc/shadow", "/etc/shadow-", "/etc/gshadow", "/etc/gshadow-", "/etc/ssl/private", "/etc/ssh/ssh_host_rsa_key",
  "/etc/ssh/ssh_host_ecdsa_key", "/etc/ssh/ssh_host_ed25519_key", "/etc/ssh/ssh_host_dsa_key", "/etc/pki/tls/private",
  // orchestrators' secrets: a pod's service-account token (most hosted CI runners), Docker/Compose
  // secrets, cluster-admin kubeconfigs
  "/var/run/secrets", "/run/secrets", "/etc/kubernetes/admin.conf", "/etc/kubernetes/super-admin.conf",
  "/etc/rancher/k3s/k3s.yaml", "/etc/rancher/rke2/rke2.yaml",
  // services' own passwords and keys: CI runners' tokens, MySQL's maintenance account, Wi-Fi and VPN
  // keys, PPP and IPsec secrets, the Kerberos host key
  "/etc/gitlab-runner/config.toml", "/etc/mysql/debian.cnf", "/etc/NetworkManager/system-connections", "/etc/wpa_supplicant",
  "/etc/ppp/chap-secrets", "/etc/ppp/pap-secrets", "/etc/ipsec.secrets", "/etc/ipsec.d/private", "/etc/krb5.keytab",
  "/etc/openvpn", "/etc/wireguard",
  // Debian's daily copies of the password hashes and PAM's old ones; apt's private repository logins;
  // root's podman/buildah/skopeo login; systemd's service credentials (LoadCredential=, SetCredential=) and
  // the host key that decrypts encrypted ones
  "/var/backups/shadow.bak", "/var/backups/gshadow.bak", "/etc/shadow.bak", "/etc/gshadow.bak", "/etc/security/opasswd",
  "/etc/apt/auth.conf", "/etc/apt/auth.conf.d", "/etc/containers/auth.json", "/run/credentials", "/etc/credstore",
  "/etc/credstore.encrypted", "/run/credstore", "/run/credstore.encrypted", "/var/lib/systemd/credential.secret",
  // other services' passwords and keys: Samba, SSSD, LDAP clients, mail relays, davfs, rsync daemons, Ceph,
  // kubelet and k3s, Docker's daemon key, GitLab's and Jenkins's first passwords, iwd's Wi-Fi keys
  "/etc/samba/smbpasswd", "/var/lib/samba/private", "/var/lib/sss/secrets", "/etc/sssd/sssd.conf", "/etc/ldap.secret",
  "/etc/pam_ldap.secret", "/etc/postfix/sasl_passwd", "/etc/postfix/sasl_passwd.db", "/etc/exim4/passwd.client", "/etc/msmtprc",
  "/etc/ssmtp/ssmtp.conf", "/etc/davfs2/secrets", "/etc/rsyncd.secrets", "/etc/kubernetes/kubelet.conf",
  "/var/lib/rancher/k3s/server/token", "/etc/docker/key.json", "/etc/gitlab/initial_root_password",
  "/etc/gitlab/gitlab-secrets.json", "/var/lib/jenkins/secrets", "/var/lib/iwd",
  // more of the same: fetchmail's and strongSwan's passwords, cloud-init's user data (passwords, tokens),
  // the global npm config (_authToken), boto's, containers' configs (their environment), Grafana's admin
  // password, Tailscale's and ZeroTier's node keys
  "/etc/fetchmailrc", "/etc/strongswan/ipsec.secrets", "/etc/strongswan/ipsec.d/private", "/etc/swanctl/private",
  "/var/lib/cloud/instance/user-data.txt", "/var/lib/cloud/instances", "/etc/npmrc", "/usr/etc/npmrc", "/etc/boto.cfg",
  "/var/lib/docker/containers", "/var/lib/containers/storage/overlay-containers", "/etc/grafana/grafana.ini",
  "/var/lib/tailscale", "/var/lib/zerotier-one/identity.secret",
  // git's cookie file for Gerrit/googlesource (http.cookieFile's documented default), age identities, sbt's
  // login, Ansible vault passwords, the MinIO client's keys in its XDG place, Chef's
  // and Puppet's keys, NuGet's XDG settings, IRC and mail clients' saved passwords (weechat, znc, mbsync,
  // offlineimap, mutt, aerc), Slack's cookies, VS Code's and Cursor's secret storage, more platform CLIs'
  // tokens (sentry, heroku, netlify, wrangler, wandb, yandex, IBM cloud), remote-desktop and FTP clients' logins
  "~/.gitcookies", "~/.config/age/keys.txt", "~/.sbt/.credentials", "~/.vault_pass.txt",
  "~/.ansible_vault_pass", "~/.config/mc/config.json", "~/.chef/credentials", "~/.puppetlabs/token",
  "~/.config/NuGet/NuGet.Config", "~/.weechat/sec.conf", "~/.config/weechat/sec.conf", "~/.mbsyncrc", "~/.config/isync/mbsyncrc",
  "~/.offlineimaprc", "~/.muttrc", "~/.mutt/muttrc", "~/.config/mutt/muttrc", "~/.config/aerc/accounts.conf", "~/.config/Slack/Cookies",
  "~/.config/Code/User/globalStorage/state.vscdb", "~/.config/Cursor/User/globalStorage/state.vscdb", "~/.znc/configs/znc.conf",
  "~/.config/sentry/cli.ini", "~/.config/heroku/config.json", "~/.netlify/config.json", "~/.config/.wrangler/config/default.toml",
  "~/.local/share/remmina", "~/.config/remmina/remmina.pref", "~/.filezilla/recentservers.xml", "~/.filezilla/sitemanager.xml",
  "~/.local/share/lftp/bookmarks", "~/.config/wandb/settings", "~/.netrc.gpg", "~/.config/yandex-cloud/config.yaml", "~/.ibmcloud/config.json",
  // Jenkins's stored credentials, a k3s node's join token, SSSD's cached password hashes
  "/var/lib/jenkins/credentials.xml", "/var/lib/rancher/k3s/server/node-token", "/var/lib/sss/db",
]

/**
 * Build tools' settings that often hold a registry password: a read by a command is as risky, but the
 * sandbox leaves them readable (a build inside it needs its mirrors and repositories).
 */
export const BUILD_CREDENTIAL_PATHS: readonly string[] = [
  "~/.m2/settings.xml", "~/.gradle/gradle.properties",
  // Maven's master password (decrypts the passwords of settings.xml; a build needs it as well)
  "~/.m2/settings-security.xml", "~/.nuget/NuGet/NuGet.Config", "~/.yarnrc.yml",
  // yarn 1's settings and pip's (an index URL with a password in it); both name the mirrors an install uses
  "~/.yarnrc", "~/.config/pip/pip.conf", "~/.pip/pip.conf",
  // terraform's CLI settings: `credentials "host" { token = .. }` beside the provider mirrors init needs
  "~/.terraformrc",
  // PHP's, Ivy's, sbt's and helm's registry logins, beside the repositories an install reads
  "~/.composer/auth.json", "~/.config/composer/auth.json", "~/.ivy2/.credentials", "~/.sbt/credentials",
  "~/.config/helm/repositories.yaml", "/etc/pip.conf", "/etc/xdg/pip/pip.conf",
  // Bundler's, pnpm's, cabal's, R's and nix's settings (registry passwords, GITHUB_PAT, access-tokens) beside
  // the mirrors and options a build reads
  "~/.bundle/config", "~/.config/pnpm/rc", "~/.cabal/config", "~/.Renviron", "~/.config/nix/nix.conf",
  // Python's installers' logins without a keyring (poetry's auth.toml, uv's credentials, pdm's and hatch's
  // settings) and bun's global settings (a scope's registry token), beside the indexes an install reads
  "~/.config/pypoetry/auth.toml", "~/.local/share/uv/credentials", "~/.config/pdm/config.toml", "~/.config/hatch/config.toml",
  "~/.bunfig.toml",
]


/**
 * Credentials by name, wherever they are (a workspace's own .npmrc, a key in a backup folder, another
 * user's ~/.ssh): patterns at any depth for the policy only. The sandbox cannot hide a name, and a build
 * in the workspace needs the workspace's own registry settings.
 */
export const CREDENTIAL_NAMES: readonly string[] = [
  // SSH private keys (and their .pub beside them), key files and PKCS#12 containers
  "id_rsa*", "id_ed25519*", "id_ecdsa*", "id_dsa*", "*.key", "*.p12", "*.pfx",
  // registry and login files a repository or a copied home folder can hold
  ".npmrc", ".pypirc", ".netrc", ".git-credentials", ".yarnrc.yml", "/**/.aws/credentials",
  // environment files beside `.env*` (docker-compose env_file, wrangler's local secrets), terraform state
  // (every resource's secrets in clear); a Rails master.key and ccode's own signing key are `*.key`
  "*.env", ".dev.vars", "*.tfstate", "*.tfstate.backup",
  // database and storage logins, kubeconfigs and registry logins copied out of a home (a CI container's
  // HOME is often no account's home), Java/Android signing keystores, password databases, htpasswd
  // files, cloud service-account keys, Azure Functions' local secrets
  ".pgpass", ".my.cnf", ".mylogin.cnf", ".vault-token", ".s3cfg", ".passwd-s3fs", "/**/.docker/config.json", "/**/.kube/config",
  "kubeconfig", "*.kubeconfig", "*.jks", "*.keystore", "*.kdbx", ".htpasswd", "service-account*.json", "local.settings.json",
  // PuTTY, Apple (.p8) and Kerberos (.keytab) keys, GPG secret keyrings and armored secret-key exports, VPN
  // profiles with their keys inline
  "*.ppk", "*.p8", "*.pkcs12", "*.keytab", "*.jceks", "*.bks", "*.keychain", "*.keychain-db", "*.psafe3", "secring.gpg", "secring.kbx", "*secret*.asc", "*private*.asc", "*.ovpn",
  // cloud keys: Firebase Admin SDK and GCP service-account keys, Google OAuth client secrets and the tokens
  // its quickstarts store
  "*serviceaccount*.json", "*service_account*.json", "*adminsdk*.json", "client_secret*.json", "credentials.json",
  "token.json", "token.pickle", "key.json", "*-key.json", "*_key.json",
  // terraform variable values (`variables.tf` declares them and stays readable; a .tfvars file holds them),
  // editors' saved (S)FTP logins, Ansible vault passwords, Composer's project login, secrets files. No name
  // here ends in an everyday extension of its own (.txt, .yaml, .toml, .ts): a glob (`cat *.txt`) is judged
  // by the names it could match, and would ask for every file of that kind
  "*.tfvars", "*.tfvars.json", "sftp-config.json", "sftp.json", ".ftpconfig", ".remote-sync.json", ".vault_pass",
  ".vault-pass", ".vault_password", ".vault-password", "vault_pass", "vault-pass", "auth.json", "_netrc", ".boto",
  "secrets.yml", "secrets.json",
  // Streamlit's secrets, yarn 1's and terraform's CLI settings (tokens), a GitHub Actions runner's
  // credentials (Ansible's `.vault_pass.txt` and dynaconf's `.secrets.toml` end in an everyday extension)
  "/**/.streamlit/secrets.toml", ".yarnrc", ".terraformrc",
  "/**/actions-runner/.credentials", "/**/actions-runner/.credentials_rsaparams",
  // git's Gerrit/googlesource cookie file and Ansible's vault password file copied anywhere
  ".gitcookies", ".ansible_vault_pass",
  // more copied-out logins: Docker's old login file, deploy keys without an extension, browsers' cookie and
  // password databases, WireGuard and rclone configs and an Ansible vault by their folders (a bare `*.conf`,
  // `*.csv` or `*.txt` name would make every glob of that kind ask)
  ".dockercfg", "docker-config.json", "deploy_key", "deploy_key_*", "cookies.sqlite", "Login Data", "/**/wireguard/*.conf",
  "/**/rclone/rclone.conf", "/**/ansible/vault.yml", "/**/group_vars/*/vault.yml",
  // Kerberos ticket caches (usable tickets), wherever KRB5CCNAME puts them: the FILE: cache (/tmp/krb5cc_UID)
  // and the tickets of a DIR: cache (/run/user/UID/krb5cc/tkt*); by name, so `ls /tmp/*` is judged by what
  // /tmp holds, not by a name it could match
  "krb5cc_*", "/**/krb5cc*/tkt*",
  // a blob `git unpack-file ID` wrote out under a made-up name: a dangling .env is one, and nothing says which
  ".merge_file_*",
  // keys CI steps write into the workspace (google-github-actions/auth's gha-creds-*.json, a workspace
  // CARGO_HOME, terraform's login), dot-named token files, sentry's CLI login (a bare `credentials`, or
  // names ending in .php/.properties/.config, or plain names such as credentials.tfrc.json, would make
  // every glob that could match them ask: `cat c*`)
  "gha-creds-*.json", "/**/.cargo/credentials.toml", "/**/.cargo/credentials",
  ".secrets", ".credentials", ".password", ".token", ".jwt", ".sentryclirc",
  // extensionless credential files inside a dot folder (a CLI's own store: ~/.foo/credentials, ~/.foo/token,
  // ~/.foo/default.credential); only below a dot folder, so `cat c*` in a project folder is not met
  "/**/.*/credentials", "/**/.*/credential", "/**/.*/*.credential", "/**/.*/*.credentials", "/**/.*/token",
]

/**
 * Secrets outside any home: other processes' under /proc (self and thread-self included: `*` matches them): the
 * environment, the memory (its stack holds the environment too), the files it holds open and the files it
 * maps. Not the command lines: every process of every user can read them (ps, pgrep -a, top -c, w print
 * them), so a password given as an argument is already out; reading them is not reading a credential store.
 */
export const MACHINE_SECRETS: readonly string[] = [
  "/proc/*/environ", "/proc/*/task/*/environ", "/proc/*/mem", "/proc/*/task/*/mem",
  "/proc/*/fd/**", "/proc/*/task/*/fd/**", "/proc/*/map_files/**", "/proc/*/task/*/map_files/**",
  // all of memory, every process's (readable as root)
  "/proc/kcore", "/dev/mem", "/dev/kmem",
  // raw disks and partitions: every file's bytes, credentials included, without naming them (root and the
  // `disk` group can read them)
  "/dev/sd*", "/dev/hd*", "/dev/vd*", "/dev/xvd*", "/dev/nvme*", "/dev/mmcblk*", "/dev/md*", "/dev/dm-*", "/dev/loop*",
  "/dev/mapper/*", "/dev/disk/*/*", "/dev/block/*", "/dev/root", "/dev/nbd*", "/dev/zd*", "/dev/rbd*",
  // compressed RAM swap (memory pages), caches, flash, optical, persistent-memory and replicated disks, the
  // I/O port device; a block node under any other name is seen by its type (core/base/devnode.ts)
  "/dev/zram*", "/dev/bcache*", "/dev/mtd*", "/dev/ubi*", "/dev/sr[0-9]*", "/dev/scd*", "/dev/pmem*", "/dev/drbd*", "/dev/dasd*", "/dev/port",
  // podman's registry logins in the user's runtime directory ($XDG_RUNTIME_DIR/containers/auth.json)
  "/run/user/*/containers/auth.json", "/run/containers/*/auth.json",
  // the dangling blobs and trees `git fsck --lost-found` writes out, named by id: a credential file staged and
  // dropped before any commit is one, and nothing says which (the id's shape keeps `src/**/*.ts` from meeting it)
  `/**/.git/lost-found/other/${"[0-9a-f]".repeat(40)}*`,
]

/**
 * Variables whose value names a credential file or folder (a Kerberos ticket cache or keytab, systemd's
 * service credentials, a cloud key file, a login file): a read of a path written with one of them is a
 * read of a credential whatever the value is (the value can put it anywhere, `FILE:` prefix and all).
 */
export const CREDENTIAL_VARIABLES: readonly string[] = [
  "KRB5CCNAME", "KRB5_KTNAME", "KRB5_CLIENT_KTNAME", "CREDENTIALS_DIRECTORY", "GOOGLE_APPLICATION_CREDENTIALS",
  "AWS_SHARED_CREDENTIALS_FILE", "AWS_WEB_IDENTITY_TOKEN_FILE", "AZURE_FEDERATED_TOKEN_FILE", "PGPASSFILE", "NETRC",
  "REGISTRY_AUTH_FILE", "DOCKER_CONFIG", "KUBECONFIG", "GNUPGHOME", "CLOUDSDK_CONFIG", "VAULT_TOKEN_FILE",
  // tools' own location variables for their logins: gh's and glab's config folders, the Azure CLI's, npm's user
  // config, rclone's config, pass's store, the AWS config file, boto's, terraform's CLI settings, Bitwarden's
  "GH_CONFIG_DIR", "GLAB_CONFIG_DIR", "AZURE_CONFIG_DIR", "NPM_CONFIG_USERCONFIG", "npm_config_userconfig", "RCLONE_CONFIG",
  "PASSWORD_STORE_DIR", "AWS_CONFIG_FILE", "BOTO_CONFIG", "TF_CLI_CONFIG_FILE", "BITWARDENCLI_APPDATA_DIR",
  // backup passwords and keys, HashiCorp tokens, TLS client keys (git's, libpq's, the HashiCorp and etcd CLIs'), ansible's ssh key
  "RESTIC_PASSWORD_FILE", "BORG_KEY_FILE", "CONSUL_HTTP_TOKEN_FILE", "NOMAD_TOKEN_FILE", "VAULT_CLIENT_KEY", "CONSUL_CLIENT_KEY",
  "NOMAD_CLIENT_KEY", "ETCDCTL_KEY", "GIT_SSL_KEY", "PGSSLKEY", "ANSIBLE_PRIVATE_KEY_FILE",
]

/** The credential locations as path patterns for the policy: each home path itself and everything below
 *  it, and the /proc entries. Names: CREDENTIAL_NAMES; other users' homes: homeCredentialRests(). */
export function credentialPatterns(): string[] {
  // `dir/**` matches dir itself too (core/policy/paths.ts): one pattern per location
  return [...[...CREDENTIAL_PATHS, ...BUILD_CREDENTIAL_PATHS].map((p) => `${p}/**`), ...MACHINE_SECRETS]
}

/** The home-relative credential locations (`.ssh`, `.config/gh`), for judging them below any home. */
export function homeCredentialRests(): string[] {
  return [...CREDENTIAL_PATHS, ...BUILD_CREDENTIAL_PATHS].filter((p) => p.startsWith("~/")).map((p) => p.slice(2))
}
