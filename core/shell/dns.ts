// Read-only listers that reach the network: a host NAME in an `ss` filter (`dst NAME`, `src NAME`) or in
// `lsof -i @NAME` is a forward DNS lookup of a name the command chooses (text in the name leaves in the
// query: `dst $(cmd).example.com`); `ss -r`, netstat and lsof without -n, hostname -A/-f/-d/-i/-a, who
// --lookup and last -d look up addresses and names of this machine; systemctl -H HOST reads another
// machine's services through ssh. Each is `medium`, like getent hosts and ssh; the numeric forms
// (`ss -tln`, `netstat -tlnp`, `lsof -nP -i :3000`, `ss dst 10.0.0.1`) stay read-only. Pure.
import type { Finding } from "./raw.ts"
import type { View } from "./table.ts"
import { lazyOptions, resolveLong } from "./getopt.ts"

const IPV4 = /^\d{1,3}(\.\d{1,3}){0,3}(\/\d+)?$/

/** A host of an ss filter or lsof -i that needs no lookup: an address, `*`, localhost (/etc/hosts) or nothing. */
function numericHost(host: string): boolean {
  if (host === "" || host === "*" || host === "localhost") return true
  if (host.startsWith("[")) return /^\[[0-9a-fA-F:.%]*\](\/\d+)?$/.test(host)
  return IPV4.test(host) || /^[0-9a-fA-F:]*:[0-9a-fA-F:.]*(\/\d+)?$/.test(host)
}

// ss HOST[:PORT]: a name or IPv4 address with an optional port; IPv6 in brackets or bare
function ssHost(word: string): string {
  if (word.startsWith("[")) return word.slice(0, word.indexOf("]") + 1)
  const colons = word.split(":").length - 1
  if (colons > 1) return word
  return colons === 1 ? word.slice(0, word.indexOf(":")) : word
}

function network(reason: string): Finding {
  return { name: "network", level: "medium", reason }
}

const SS_HOST_WORDS = new Set(["dst", "src"])
const COMPARE = new Set(["=", "==", "eq", "!=", "ne", "neq"])

// ss and hostname read options with getopt_long: any unique prefix of a long name is that option (`ss --reso`,
// `hostname --all-f`); a prefix of a lookup option is taken as it (an ambiguous one makes the program refuse)
const SS_LONG = lazyOptions({
  long: "numeric resolve options extended memory info processes threads bpf events dccp tcp sctp udp raw unix all listening ipv4 ipv6 packet family= socket= query= summary diag= filter= version help context contexts net= kill no-header xdp tipc tipcinfo tos cgroup vsock mptcp oneline inet-sockopt bpf-maps bpf-map-id=",
})

/** The long option as written (`--reso`, `--fil=F`) when it is a prefix of `name`. */
function prefixOf(a: string, name: string): boolean {
  if (!a.startsWith("--")) return false
  const given = a.slice(2).split("=")[0]!
  return given !== "" && name.startsWith(given)
}

function ss(v: View, out: Finding[]): void {
  const resolve = v.values.find((a) => prefixOf(a, "resolve") || (/^-[A-Za-z0-9]+$/.test(a) && /^-[^fADF]*r/.test(a)))
  if (resolve) out.push(network(`ss -r/--resolve${resolve.startsWith("--") && resolve !== "--resolve" ? ` (as ${resolve})` : ""} looks up the name of every address it shows over the network (DNS)`))
  // the filter: every word after the options (ss joins them), split at blanks
  const tokens: (string | undefined)[] = []
  for (let i = 0; i < v.args.length; i++) {
    const w = v.args[i]!
    if (w.value?.startsWith("-")) {
      const long = w.value.startsWith("--") && !w.value.includes("=") ? resolveLong(w.value.slice(2), SS_LONG()) : undefined
      if (/^-[A-Za-z0-9]*[fADFN]$/.test(w.value) || (long !== undefined && SS_LONG().long.get(long) === "value")) i++
      if (/^-[A-Za-z0-9]*F/.test(w.value) || prefixOf(w.value, "filter")) out.push(network(`ss ${w.value}: reads its filter from a file, whose host names ss looks up over the network (DNS)`))
      continue
    }
    if (w.value === undefined) tokens.push(undefined)
    else tokens.push(...w.value.split(/\s+/).filter(Boolean))
  }
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]
    if (t === undefined) {
      out.push(network(`ss: a filter word not known before it runs could be a host name ss looks up over the network (DNS)`))
      continue
    }
    if (!SS_HOST_WORDS.has(t)) continue
    let host = tokens[i + 1]
    if (host !== undefined && COMPARE.has(host)) host = tokens[i + 2]
    if (host === undefined) continue
    if (!numericHost(ssHost(host))) out.push(network(`ss ${t} ${host}: looks up the host name over the network (DNS)`))
  }
}

// lsof's options whose value is the next word (a process, user, command, descriptor set...)
const LSOF_VALUED = /^(-[cdDegkpsu]|\+c)$/

// lsof -i [46][protocol][@host][:port]
function lsof(v: View, out: Finding[]): void {
  let numeric = false
  let inet = false
  let selects = false
  for (let i = 0; i < v.args.length; i++) {
    const w = v.args[i]!
    const a = w.value
    if (a === undefined) {
      out.push(network(`lsof ${w.text}: an argument not known before it runs could name a host lsof looks up over the network (DNS)`))
      continue
    }
    if (/^-[A-HJ-Za-hj-z]*n/.test(a)) numeric = true
    // a file or directory operand (or +d/+D DIR) shows only the processes that have it open, no sockets
    if (/^\+[dD]$/.test(a) || !/^[-+]/.test(a)) selects = true
    if (LSOF_VALUED.test(a) && v.values[i + 1] !== undefined) i++
    const bundle = /^-[A-HJ-Za-hj-z]*i/.exec(a)
    if (!bundle) continue
    inet = true
    let spec = a.slice(bundle[0].length)
    if (!spec && v.values[i + 1] !== undefined && !/^[-+]/.test(v.values[i + 1]!)) spec = v.values[++i]!
    if (v.args[i]?.value === undefined) out.push(network(`lsof -i ${v.args[i]!.text}: the address is not known before it runs, a host name in it is looked up over the network (DNS)`))
    const at = spec.indexOf("@")
    if (at < 0) continue
    const rest = spec.slice(at + 1)
    const host = rest.startsWith("[") ? rest.slice(0, rest.indexOf("]") + 1) : rest.split(":")[0]!
    if (!numericHost(host)) out.push(network(`lsof -i ${spec}: looks up the host name ${host} over the network (DNS)`))
  }
  if (!numeric && (inet || !selects)) out.push(network("lsof without -n looks up the name of every network address it shows over the network (DNS): add -n"))
}

// netstat's socket, route and group lists name addresses; -n/--numeric(-hosts) keeps them numeric
function netstat(v: View, out: Finding[]): void {
  const numeric = v.values.some((a) => /^--numeric(-hosts)?$/.test(a) || (/^-[A-Za-z0-9]+$/.test(a) && a.includes("n")))
  const quiet = v.values.some((a) => /^--(interfaces|statistics|version|help)$/.test(a) || (/^-[A-Za-z0-9]+$/.test(a) && /[isVh]/.test(a)))
  if (!numeric && !quiet) out.push(network("netstat without -n looks up the name of every address it shows over the network (DNS): add -n"))
}

const HOSTNAME_LOOKUPS = ["alias", "all-fqdns", "domain", "fqdn", "long", "ip-address"]

function hostname(v: View, out: Finding[]): void {
  const found = v.values.find((a) => HOSTNAME_LOOKUPS.some((n) => prefixOf(a, n)) || (/^-[A-Za-z]+$/.test(a) && /[aAdfi]/.test(a)))
  if (found) out.push(network(`hostname ${found} looks up the machine's names and addresses over the network (DNS)`))
}

// who --lookup canonicalizes the login hosts through DNS; last -d/--dns turns their addresses into names
function who(v: View, out: Finding[]): void {
  const found = v.values.find((a) => /^--loo(k(up?)?)?$/.test(a))
  if (found) out.push(network(`who ${found} looks up the login hosts over the network (DNS)`))
}

function last(v: View, out: Finding[]): void {
  // digits are options too (`-5` = -n 5: `last -5d` is -5 then -d)
  const found = v.values.find((a) => /^--dn?s?$/.test(a) || /^-[a-zA-Z0-9]*d/.test(a))
  if (found) out.push(network(`last ${found} looks up the login addresses over the network (DNS)`))
}

// systemctl -H/--host [USER@]HOST[:PORT] runs `ssh HOST systemd-stdio-bridge` (any position, any spelling)
function systemctl(v: View, out: Finding[]): void {
  for (let i = 0; i < v.args.length; i++) {
    const a = v.values[i]!
    if (a === "--") return
    const long = /^--(ho|hos|host)(=(.*))?$/s.exec(a)
    // the letters before H take no value (`-pHostname` is -p's value)
    const short = /^-[A-GI-LN-OQ-RU-Zacd-mqru-z]*H(.*)$/s.exec(a)
    if (!long && !(short && !a.startsWith("--"))) continue
    const host = long ? (long[2] !== undefined ? long[3] : v.values[i + 1]) : short![1] || v.values[i + 1]
    out.push(network(`systemctl ${a.startsWith("--") ? a.split("=")[0] : "-H"} ${host ?? ""}: reaches another machine through ssh (the network, the user's ssh keys)`))
    return
  }
}

export const DNS_ASSESSORS = { ss, lsof, netstat, hostname, who, last, lastb: last, systemctl }
