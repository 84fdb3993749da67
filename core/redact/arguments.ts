// Which arguments of which programs are secrets: passwords and tokens typed on the command line.
// Data only; `command-line.ts` applies it to the words of a command. Extended by policy
// `redaction.flags` (program -> flags whose value is a secret).

/** Which part of an argument is the secret (`curl -u user:PASS`, `smbclient -U user%PASS`). */
export type SecretPart = "all" | "after-colon" | "after-percent" | "after-comma" | "after-equals" | "pass-prefix" | "slash-password"

export interface SecretFlag {
  /** as typed: `-p`, `--password`, `-storepass`, `/p:` */
  flag: string
  /** `attached`: only `-pX` / `--password=X` (a separate word means something else: mysql's database);
   *  `separate`: only `-p X`. Default: both. */
  form?: "attached" | "separate"
  part?: SecretPart
}

export interface SecretPositional {
  /** the argument's place among the positional arguments that follow `after` */
  index: number
  /** short flag letters that must all be given (`htpasswd -b`) */
  with?: string
  /** short flag letters that must not be given */
  without?: string
  part?: SecretPart
}

export interface ProgramArguments {
  /** program names (basename, as typed) */
  programs: readonly string[]
  /** the rest applies only after these subcommands (`docker login`: `docker run -p 80:80` is a port) */
  after?: readonly string[]
  flags?: readonly (string | SecretFlag)[]
  /** short flags without a value that may come first in one word: `curl -sSu user:pass` */
  bundles?: string
  /** flags whose separate value is not a positional argument (`aws --profile p configure set ...`) */
  valued?: readonly string[]
  positional?: readonly SecretPositional[]
  /** a positional argument naming a secret: the next one (or its own `=VALUE`) is the secret
   *  (`aws configure set aws_secret_access_key VALUE`, `npm config set //host/:_authToken=VALUE`) */
  keys?: RegExp
  /** looked for only on a line with a flag: the program's name alone is too common a word (`set`) */
  flagged?: boolean
}

const ENV_SECRET = /^[A-Z_][A-Z0-9_]*(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|_PASS|_PWD|CREDENTIALS|_AUTH)$/
const MYSQL = ["mysql", "mariadb", "mysqldump", "mysqladmin", "mysqlimport", "mysqlshow", "mysqlcheck", "mysqlpump", "mysqlbinlog", "mysqlslap", "mariadb-dump", "mariadb-admin", "mysqlsh"]
const LDAP = ["ldapsearch", "ldapmodify", "ldapadd", "ldapdelete", "ldapwhoami", "ldapcompare", "ldapmodrdn", "ldapexop", "ldapvc"]
const MONGO = ["mongo", "mongosh", "mongodump", "mongorestore", "mongoexport", "mongoimport", "mongostat", "mongotop", "mongofiles"]
const SMB = ["smbclient", "rpcclient", "smbcacls", "smbget", "smbtree", "smbpasswd", "net", "wbinfo", "samba-tool"]
const REGISTRY_LOGIN = ["docker", "podman", "nerdctl", "buildah", "skopeo", "oras", "crane"]
const KEYTOOL = ["-storepass", "-keypass", "-srcstorepass", "-deststorepass", "-srckeypass", "-destkeypass", "-new"]
const OPENSSL_PASS = ["-pass", "-passin", "-passout", "-password"].map((flag): SecretFlag => ({ flag, form: "separate", part: "pass-prefix" }))
const colon = (flag: string): SecretFlag => ({ flag, part: "after-colon" })
const percent = (flag: string): SecretFlag => ({ flag, part: "after-percent" })

export const SECRET_ARGUMENTS: readonly ProgramArguments[] = [
  { programs: ["sshpass"], flags: ["-p"] },
  {
    programs: ["curl"],
    flags: [colon("-u"), colon("--user"), colon("-U"), colon("--proxy-user"), "--oauth2-bearer", "--pass", "--proxy-pass", "--tlspassword", "--proxy-tlspassword"],
    bundles: "sSkvLfiIqgGjJnNOR0123456#ZlBpa",
  },
  { programs: ["wget"], flags: ["--password", "--http-password", "--ftp-password", "--proxy-password"] },
  { programs: ["redis-cli", "valkey-cli", "keydb-cli"], flags: [{ flag: "-a", form: "separate" }, "--pass"] },
  { programs: MYSQL, flags: [{ flag: "-p", form: "attached" }, { flag: "--password", form: "attached" }] },
  { programs: LDAP, flags: ["-w"], bundles: "xZvnNcMLuWtTAkCIr" },
  { programs: ["ldappasswd"], flags: ["-w", "-s", "-a"], bundles: "xZvnNcMLuWtTAkCIr" },
  { programs: SMB, flags: [percent("-U"), percent("--user")], bundles: "NgkPq" },
  // htpasswd -b FILE USER PASSWORD; -n prints instead of writing a file: htpasswd -nb USER PASSWORD
  {
    programs: ["htpasswd"],
    valued: ["-C", "-r"],
    positional: [{ index: 2, with: "b", without: "n" }, { index: 1, with: "bn" }],
  },
  { programs: ["sqlcmd", "bcp", "osql", "isql", "sqsh", "tsql"], flags: ["-P"] },
  { programs: MONGO, flags: [{ flag: "-p", form: "separate" }, "--password"] },
  { programs: ["openssl"], flags: [...OPENSSL_PASS, { flag: "-k", form: "separate" }] },
  { programs: ["keytool", "jarsigner"], flags: KEYTOOL },
  { programs: ["ssh-keygen"], flags: ["-N", "-P"], bundles: "qvyHlLBcpe" },
  { programs: ["aws"], after: ["configure", "set"], valued: ["--profile", "--region", "--output", "--endpoint-url"], keys: /(?:^|\.)aws_(?:secret_access_key|session_token)$/ },
  { programs: REGISTRY_LOGIN, after: ["login"], flags: ["-p", "--password"] },
  { programs: ["helm"], after: ["registry", "login"], flags: ["-p", "--password"] },
  { programs: ["skopeo"], flags: [colon("--creds"), colon("--src-creds"), colon("--dest-creds")] },
  { programs: ["az"], after: ["login"], flags: ["-p", "--password"] },
  { programs: ["gh"], after: ["secret", "set"], flags: ["-b", "--body"] },
  { programs: ["kubectl", "oc"], after: ["create", "secret"], flags: [{ flag: "--from-literal", part: "after-equals" }, "--docker-password"] },
  { programs: ["npm", "pnpm", "yarn"], after: ["config", "set"], keys: /(?:^|[:.])(?:_auth|_authToken|_password|npmAuthToken|npmAuthIdent)$/ },
  { programs: ["gpg", "gpg2"], flags: ["--passphrase"] },
  { programs: ["zip", "unzip", "zipcloak"], flags: [{ flag: "-P", form: "separate" }, "--password"] },
  { programs: ["7z", "7za", "7zz", "rar", "unrar"], flags: [{ flag: "-p", form: "attached" }] },
  { programs: ["ipmitool"], flags: ["-P"] },
  { programs: ["snmpwalk", "snmpget", "snmpset", "snmpbulkwalk", "snmpgetnext", "snmptrap"], flags: ["-A", "-X"] },
  { programs: ["lftp"], flags: [{ flag: "-u", part: "after-comma" }] },
  { programs: ["xfreerdp", "wlfreerdp", "sdl-freerdp"], flags: [{ flag: "/p:", form: "attached" }, { flag: "/password:", form: "attached" }] },
  { programs: ["rdesktop", "ncftp", "ncftpget", "ncftpput", "hdbsql", "psexec"], flags: ["-p"] },
  { programs: ["plink", "pscp", "psftp", "putty"], flags: ["-pw"] },
  { programs: ["mosquitto_pub", "mosquitto_sub", "mosquitto_rr"], flags: ["-P", "--pw"] },
  { programs: ["cqlsh", "cypher-shell"], flags: ["-p", "--password"] },
  { programs: ["etcdctl"], flags: [colon("--user"), "--password"] },
  { programs: ["influx"], flags: ["-password", "--password"] },
  { programs: ["consul", "nomad"], flags: ["-token"] },
  { programs: ["useradd", "usermod"], flags: ["-p", "--password"] },
  { programs: ["sqlplus", "rman", "expdp", "impdp", "sqlldr"], positional: [{ index: 0, part: "slash-password" }], valued: ["-L", "-M"] },
  { programs: ["wpa_passphrase"], positional: [{ index: 1 }] },
  // `vault login TOKEN` (Go flags: `-address X` takes the next word; `-method=userpass password=X` is an assignment)
  {
    programs: ["vault"], after: ["login"], positional: [{ index: 0 }],
    valued: ["-address", "--address", "-method", "--method", "-path", "--path", "-namespace", "--namespace", "-ns", "-format", "--format", "-field", "--field", "-ca-cert", "-ca-path", "-client-cert", "-client-key", "-tls-server-name"],
  },
  { programs: ["rabbitmqctl"], after: ["add_user"], positional: [{ index: 1 }] },
  { programs: ["rabbitmqctl"], after: ["change_password"], positional: [{ index: 1 }] },
  { programs: ["mc"], after: ["alias", "set"], positional: [{ index: 3 }] },
  { programs: ["nmcli"], keys: /^(?:password|wifi-sec\.psk|802-11-wireless-security\.psk|vpn\.secrets\.password)$/ },
  // csh `setenv NAME VALUE`, fish `set -gx NAME VALUE` (`NAME=VALUE` is an assignment: contexts.ts, configs.ts)
  { programs: ["setenv"], keys: ENV_SECRET },
  { programs: ["set"], keys: ENV_SECRET, flagged: true },
  { programs: ["pdftk"], keys: /^(?:user_pw|owner_pw|input_pw)$/ },
]
