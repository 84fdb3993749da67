// The read-only programs and, for each, every option known to only read (GNU names first; BSD letters
// where they also only read). A command of these is safe only when each of its options is in its
// list: an option not listed is not assumed harmless. Options that write or run are listed as such so
// their abbreviations resolve to them (`--compress` = `--compress-program`). Pure data.
import { byName } from "./options.ts"
import { compileOptions, type Compiled, type OptionList } from "./getopt.ts"

/** Programs whose arguments are all data (echo's words, test's expression): no option can change what they do. */
const DATA = "echo : true false help dirs jobs wait cd pushd popd exit return break continue shift umask ulimit shopt set sleep basename getconf caller bg fg disown suspend logout"

const SUM = { short: "bctwz", long: "binary check tag text zero ignore-missing quiet status strict warn untagged" }
const ANY_READ = { short: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", long: "" }

type ReadOnlyList = OptionList & { plus?: boolean; outputOperand?: number; plusCount?: boolean }

const LISTS: Record<string, ReadOnlyList> = {
  ls: {
    short: "aAbBcCdDfFgGhHiklLmnNopqQrRsStuUvxXZ1I:T:w:",
    long: "all almost-all author escape block-size= ignore-backups color? classify? directory dired file-type format= full-time group-directories-first hide= hyperlink? ignore= dereference-command-line dereference-command-line-symlink-to-dir indicator-style= inode literal kibibytes dereference numeric-uid-gid no-group hide-control-chars show-control-chars quote-name quoting-style= reverse recursive size sort= time= time-style= tabsize= width= context zero human-readable si help version",
  },
  cat: { short: "AbeEnstTuv", long: "show-all number-nonblank show-ends number squeeze-blank show-tabs show-nonprinting help version" },
  tac: { short: "brs:", long: "before regex separator= help version" },
  head: { short: "c:n:qvz", numeric: true, long: "bytes= lines= quiet silent verbose zero-terminated help version" },
  tail: { short: "c:fFn:qs:vz", numeric: true, long: "bytes= follow? lines= max-unchanged-stats= pid= quiet silent retry sleep-interval= verbose zero-terminated help version" },
  wc: { short: "clmwL", long: "bytes chars lines max-line-length words files0-from= total= help version" },
  grep: {
    short: "EFGPe:f:iywxzsvVabcD:d:hHlLm:noqrRTuUZA:B:C:", numeric: true,
    long: "extended-regexp fixed-strings basic-regexp perl-regexp regexp= file= ignore-case no-ignore-case word-regexp line-regexp null-data no-messages invert-match version help max-count= byte-offset line-number no-line-number line-buffered with-filename no-filename label= only-matching quiet silent binary-files= text devices= directories= exclude= exclude-from= exclude-dir= include= recursive dereference-recursive files-without-match files-with-matches count initial-tab null before-context= after-context= context= color? colour? binary",
  },
  rg: {
    short: "A:B:C:ce:E:f:Fg:hHiIj:lLm:M:nNopqr:sSt:T:uUvVwxz0abd:",
    long: "after-context= before-context= context= count count-matches regexp= encoding= file= fixed-strings no-fixed-strings glob= iglob= glob-case-insensitive hidden no-hidden ignore-case files files-with-matches files-without-match follow no-follow max-count= max-columns= max-columns-preview line-number no-line-number only-matching pretty quiet replace= case-sensitive smart-case type= type-not= type-list type-add= type-clear= unrestricted invert-match word-regexp line-regexp search-zip no-search-zip null text no-text binary no-binary json no-json heading no-heading no-ignore no-ignore-vcs no-ignore-dot no-ignore-global no-ignore-parent no-ignore-exclude no-ignore-files ignore-file= ignore-file-case-insensitive color= colors= column no-column max-depth= maxdepth= sort= sortr= sort-files stats no-stats trim no-trim vimgrep with-filename no-filename multiline no-multiline multiline-dotall pcre2 no-pcre2 engine= auto-hybrid-regex threads= null-data passthru passthrough context-separator= no-context-separator field-match-separator= field-context-separator= path-separator= one-file-system max-filesize= hyperlink-format= line-buffered block-buffered mmap no-mmap debug trace no-config byte-offset crlf no-crlf no-messages no-unicode dfa-size-limit= regex-size-limit= include-zero no-require-git line-number invert-match version help generate= pre= pre-glob= hostname-bin=",
    runs: "pre hostname-bin",
  },
  ag: { short: "iswvlLcnoQtuUzfA:B:C:G:g:m:", numeric: true, long: "ignore-case case-sensitive smart-case word-regexp invert-match files-with-matches files-without-matches count literal hidden unrestricted all-types search-zip follow skip-vcs-ignores depth= file-search-regex= ignore= ignore-dir= max-count= after= before= context= color nocolor column nogroup group heading noheading numbers nonumbers only-matching stats vimgrep filename nofilename null print0 silent pager=", runs: "pager" },
  ack: { short: "iIwvlLchHnoQs1fgA:B:C:m:", long: "ignore-case smart-case word-regexp invert-match files-with-matches files-without-matches count with-filename no-filename literal sort-files nocolor color column nocolumn heading noheading break nobreak group nogroup type= ignore-dir= noignore-dir= max-count= after-context= before-context= context= match= output= follow nofollow recurse norecurse noenv pager= nopager", runs: "pager output" },
  which: { short: "asv", long: "all skip-alias skip-functions read-alias read-functions skip-dot skip-tilde show-dot show-tilde tty-only version" },
  whereis: { short: "bmsulB:M:S:f" },
  type: { short: "afptP" },
  command: { short: "pvV" },
  hash: { short: "rdtl" },
  file: { short: "bcEhiklLNnprsSvz0e:f:F:m:P:", long: "brief checking-printout exclude= exclude-quiet= extension files-from= separator= mime mime-type mime-encoding apple keep-going list dereference no-dereference magic-file= no-buffer no-pad no-sandbox preserve-date raw special-files uncompress uncompress-noreport print0 parameter= help version" },
  stat: { short: "Lfc:t", long: "dereference file-system format= printf= terse cached= help version" },
  du: { short: "0abcDdhHklLmPsSxX:B:t:", long: "null all apparent-size block-size= bytes total dereference-args max-depth= human-readable inodes si summarize threshold= time? time-style= exclude= exclude-from= one-file-system count-links dereference no-dereference separate-dirs files0-from= help version" },
  df: { short: "aB:hHiklPt:Tx:v", long: "all block-size= human-readable si inodes local output? portability print-type type= exclude-type= total sync no-sync help version" },
  tree: { short: "aAcCdDfFgiJlnNpqrstuvxXhkSL:P:I:H:T:o:", long: "noreport charset= filelimit= timefmt= dirsfirst filesfirst du prune gitignore gitfile= matchdirs ignore-case info infofile= fromfile fromtabfile metafirst sort= help version", writes: "o" },
  less: { short: "NSRFXiIrnMm", long: "LINE-NUMBERS chop-long-lines RAW-CONTROL-CHARS quit-if-one-screen no-init ignore-case IGNORE-CASE", plus: true },
  more: { short: "dlfpcsun:", plus: true },
  bat: { short: "Apnl:H:r:Pd", long: "show-all plain language= highlight-line= file-name= diff diff-context= tabs= wrap= chop-long-lines terminal-width= number color= italic-text= decorations= force-colorization paging= map-syntax= ignored-suffix= theme= list-themes list-languages style= line-range= unbuffered help version", runs: "pager" },
  diff: {
    short: "abBcC:dD:eEfF:hHiI:lL:nNpPqrS:stTuU:vwW:xX:yZ", numeric: true,
    long: "normal brief report-identical-files context? unified? ed rcs side-by-side width= left-column suppress-common-lines show-c-function show-function-line= label= expand-tabs initial-tab tabsize= suppress-blank-empty recursive no-dereference new-file unidirectional-new-file ignore-file-name-case no-ignore-file-name-case exclude= exclude-from= starting-file= from-file= to-file= ignore-case ignore-tab-expansion ignore-trailing-space ignore-space-change ignore-all-space ignore-blank-lines ignore-matching-lines= text strip-trailing-cr minimal horizon-lines= speed-large-files color? palette= old-line-format= new-line-format= unchanged-line-format= line-format= old-group-format= new-group-format= changed-group-format= unchanged-group-format= help version",
  },
  cmp: { short: "bi:ln:s", long: "print-bytes ignore-initial= verbose bytes= quiet silent help version" },
  comm: { short: "123z", long: "check-order nocheck-order output-delimiter= total zero-terminated help version" },
  sort: {
    short: "bcCdfghiMmnrsuVzk:o:S:t:T:",
    long: "ignore-leading-blanks dictionary-order ignore-case general-numeric-sort ignore-nonprinting month-sort human-numeric-sort numeric-sort random-sort random-source= reverse sort= version-sort batch-size= check? compress-program= debug files0-from= key= merge output= stable buffer-size= field-separator= temporary-directory= parallel= unique zero-terminated help version",
    writes: "o output", runs: "compress-program",
  },
  uniq: { short: "cdDf:s:iuzw:", numeric: true, long: "count repeated all-repeated? skip-fields= skip-chars= ignore-case unique zero-terminated check-chars= group? help version", outputOperand: 1, plusCount: true },
  cut: { short: "b:c:d:f:nsz", long: "bytes= characters= delimiter= fields= complement only-delimited output-delimiter= zero-terminated help version" },
  tr: { short: "cCdst", long: "complement delete squeeze-repeats truncate-set1 help version" },
  nl: { short: "b:d:f:h:i:l:n:ps:v:w:", long: "body-numbering= section-delimiter= footer-numbering= header-numbering= line-increment= join-blank-lines= number-format= no-renumber number-separator= starting-line-number= number-width= help version" },
  rev: {},
  fold: { short: "bsw:", numeric: true, long: "bytes spaces width= help version" },
  fmt: { short: "cp:stuw:g:", numeric: true, long: "crown-margin prefix= split-only tagged-paragraph uniform-spacing width= goal= help version" },
  column: { short: "tnexs:c:o:N:R:J:l:d:E:T:W:H:O:r:L", long: "table separator= output-separator= columns= fillrows json table-columns= table-name= table-right= table-wrap= table-hide= table-order= tree= tree-id= tree-parent= table-noheadings keep-empty-lines output-width= help version" },
  paste: { short: "d:sz", long: "delimiters= serial zero-terminated help version" },
  join: { short: "a:e:ij:o:t:v:z1:2:", long: "ignore-case check-order nocheck-order header zero-terminated help version" },
  od: { short: "A:j:N:t:vw::abcdfiloxsS:", long: "address-radix= skip-bytes= read-bytes= format= output-duplicates width? strings? traditional endian= help version" },
  xxd: { short: "abCEeiprudR:c:g:l:n:o:s:", singleDash: true, outputOperand: 1 },
  hexdump: { short: "bcCdovxe:f:n:s:", long: "one-byte-octal one-byte-char canonical two-bytes-decimal two-bytes-octal two-bytes-hex format= format-file= length= skip= no-squeezing help version" },
  strings: { short: "adfwn:t:e:T:", numeric: true, long: "all data print-file-name bytes= radix= encoding= target= include-all-whitespace output-separator= unicode= help version" },
  md5sum: SUM, sha1sum: SUM, sha256sum: SUM, sha512sum: SUM, sha224sum: SUM, sha384sum: SUM, b2sum: { ...SUM, short: "bctwzl:", long: `${SUM.long} length=` },
  shasum: { short: "a:bcUpstw0", long: "algorithm= binary check text portable tag ignore-missing status quiet strict warn 01 help version" },
  cksum: { short: "a:l:bcrtwz", long: "algorithm= base64 check length= raw tag untagged zero ignore-missing quiet status strict warn debug help version" },
  base64: { short: "diw:", long: "decode ignore-garbage wrap= help version" },
  dirname: { short: "z", long: "zero help version" },
  realpath: { short: "emLPqsz", long: "canonicalize-existing canonicalize-missing logical physical quiet relative-to= relative-base= strip no-symlinks zero help version" },
  readlink: { short: "femnqsvz", long: "canonicalize canonicalize-existing canonicalize-missing no-newline quiet silent verbose zero help version" },
  id: { short: "agGnruzZ", long: "all context group groups name real user zero help version" },
  whoami: { long: "help version" },
  groups: { long: "help version" },
  uname: { short: "asnrvmpio", long: "all kernel-name nodename kernel-release kernel-version machine processor hardware-platform operating-system help version" },
  hostname: { short: "aAdfiIsy", long: "alias all-fqdns domain fqdn long ip-address all-ip-addresses short yp nis help version" },
  date: { short: "d:f:I::Rr:ujs:", long: "date= file= iso-8601? rfc-email rfc-3339= reference= utc universal debug resolution set= help version" },
  cal: ANY_READ, ncal: ANY_READ,
  uptime: { short: "psV", long: "pretty since help version" },
  ps: { short: "AaCcdeFfHjlLMNOqrSTuvwXxyZC:G:g:O:o:p:q:s:t:U:u:k:", long: "format= sort= pid= ppid= sid= tty= user= group= Group= User= forest no-headers headers cols= columns= width= rows= lines= cumulative deselect quick-pid= help? info version" },
  pgrep: { short: "acd:fg:G:ilnoO:P:s:t:u:U:vwxF:r:AQ:", long: "count delimiter= full pgroup= group= ignore-case list-name list-full newest oldest older= parent= session= terminal= euid= uid= inverse lightweight exact pidfile= logpidfile ignore-ancestors runstates= ns= nslist= cgroup= env= help version" },
  free: { short: "bkmghlLtws:c:", long: "bytes kibi mebi gibi tebi pebi kilo mega giga tera peta human lohi line total committed seconds= count= wide si help version" },
  env: { short: "0iu:C:vS:", long: "null ignore-environment unset= chdir= split-string= debug help version", stopAtOperand: true },
  printenv: { short: "0", long: "null help version" },
  locale: { short: "amckv", long: "all-locales charmaps category-name keyword-name verbose help version" },
  tty: { short: "s", long: "silent quiet help version" },
  nproc: { long: "all ignore= help version" },
  arch: { long: "help version" },
  seq: { short: "f:s:w", long: "format= separator= equal-width help version" },
  jq: {
    short: "nrjascCMStheL:f:",
    long: "null-input raw-input slurp compact-output raw-output raw-output0 join-output ascii-output sort-keys color-output monochrome-output tab indent= unbuffered stream stream-errors seq exit-status arg= argjson= slurpfile= rawfile= args jsonargs from-file= library-path= help version build-configuration",
  },
  yq: {
    short: "CMePNnr0I:o:p:f:is:", long: "colors no-colors exit-status prettyPrint no-doc null-input unwrapScalar? nul-output indent= output-format= input-format= front-matter= from-file= expression= header-preprocess? inplace split-exp= help version",
    writes: "i inplace s split-exp",
  },
  test: {}, "[": {},
  printf: {},
  getent: { short: "s:iA?V", long: "service= no-idn no-addrconfig help usage version" }, lscpu: { short: "abBC::ce::Jp::s:xyhV", long: "all online bytes caches? offline json extended? parse? sysroot= hex physical output-all help version" }, lsblk: ANY_READ, lsof: ANY_READ, vmstat: ANY_READ, iostat: ANY_READ, w: ANY_READ, who: ANY_READ, last: ANY_READ,
  netstat: ANY_READ, sw_vers: ANY_READ, lsb_release: ANY_READ, "xdg-user-dir": {}, tokei: ANY_READ, exa: ANY_READ, eza: ANY_READ,
  ss: { short: "hVHnralotuwxSmpiesbEZNKf:A:D:F:O46M0", long: "no-header numeric resolve all listening options extended memory processes info tos cgroup tipc-info summary events context contexts net= bpf family= query= socket= diag= filter= raw udp tcp dccp sctp mptcp xdp vsock packet unix inet inet6 oneline kill", writes: "K kill D diag" },
  top: { short: "bcHiSsd:n:p:u:U:o:O:w::E:e:1", long: "help version" },
  htop: { short: "CtMd:u:p:s:F:H", long: "no-color tree no-mouse delay= user= pid= sort-key= filter= highlight-changes? readonly no-unicode help version" },
  btop: { short: "lt", long: "low-color tty_on tty_off utf-force debug help version" },
  man: {
    short: "afkwWluiIdcDK:L:M:S:s:C:m:E:R:P:H::", long: "all whatis apropos where path location local-file manpath= sections= systems= locale= config-file= regex wildcard names-only no-subpages no-hyphenation no-justification ignore-case match-case global-apropos recode= encoding= pager= html? help version",
    // -C FILE: a man-db config's DEFINE lines name the nroff/pager/col... programs man runs
    runs: "P H pager html C config-file",
  },
  info: { short: "kd:f:n:awo:", long: "apropos= directory= file= node= all where show-options usage strict-node-location vi-keys raw-escapes no-raw-escapes help version output= dribble=", writes: "o output dribble" },
  tldr: { short: "lp:L:v", long: "list platform= language= raw help version" },
  history: { short: "c" }, // -w/-a FILE write: assess.ts
  fd: {
    short: "HIsiFgaLdpl0ud:t:e:E:c:j:S:x:X:", long: "hidden no-hidden no-ignore ignore no-ignore-vcs ignore-vcs no-require-git no-ignore-parent unrestricted case-sensitive ignore-case glob regex fixed-strings and= absolute-path relative-path list-details follow no-follow full-path print0 max-depth= min-depth= exact-depth= prune type= extension= exclude= ignore-file= color= hyperlink? threads= size= changed-within= changed-before= newer= older= owner= format= max-results= one-file-system base-directory= path-separator= search-path= strip-cwd-prefix? quiet show-errors help version exec= exec-batch=",
    runs: "x X exec exec-batch",
  },
  cloc: { long: "by-file by-file-by-lang quiet json yaml csv md exclude-dir= exclude-ext= exclude-lang= include-lang= include-ext= vcs= git skip-uniqueness match-f= not-match-f= match-d= not-match-d= fullpath help version" },
  mktemp: { short: "dqut:p:", long: "directory dry-run quiet suffix= tmpdir? help version" },
  read: { short: "ersa:d:i:n:N:p:t:u:" },
  getopts: {},
  pwd: { short: "LP", long: "logical physical help version" },
  time: { short: "pvqao:f:", long: "portability verbose quiet append format= output= help version", writes: "o output" },
  nohup: { long: "help version" },
  nice: { short: "n:", numeric: true, long: "adjustment= help version" },
  timeout: { short: "k:s:vfp", long: "kill-after= signal= verbose foreground preserve-status help version" },
}
LISTS.ll = LISTS.la = LISTS.dir = LISTS.ls!
LISTS.egrep = LISTS.grep!
LISTS.fgrep = LISTS.grep!
LISTS.fdfind = LISTS.fd!
addDataPrograms(DATA.split(" "))

/** Every read-only program, with its compiled option list; `data` programs take any word as data. */
export interface Known {
  options: Compiled
  /** arguments are data, never options */
  data: boolean
  /** `+CMD` operands are commands for the pager (less +!cmd): not read-only */
  plus: boolean
  /** the operand at this index (0-based) is a file the program writes (uniq IN OUT, xxd IN OUT) */
  outputOperand?: number
  /** an operand `+N` is the obsolete spelling of a count option, not a file (uniq +3 = --skip-chars=3) */
  plusCount: boolean
}

const DATA_NAMES = new Set([...DATA.split(" "), "test", "[", "printf", "getopts", "xdg-user-dir"])

const RAW: ReadonlyMap<string, ReadOnlyList> = byName(LISTS)
const compiled = new Map<string, Known>()

/** A read-only program's option list, compiled on first use (a hook process needs only a few). */
export function known(program: string): Known | undefined {
  let k = compiled.get(program)
  if (k) return k
  const list = RAW.get(program)
  if (!list) return undefined
  k = { options: compileOptions(list), data: DATA_NAMES.has(program), plus: !!list.plus, plusCount: !!list.plusCount }
  if (list.outputOperand !== undefined) k.outputOperand = list.outputOperand
  compiled.set(program, k)
  return k
}

/** Every program with an option list. */
export function knownPrograms(): string[] {
  return [...RAW.keys()]
}

// a loop in a function, not at the top of the module: a loop there makes the engine JIT-compile the
// top-level code of the whole bundled chunk (~5 ms per start of the hook; docs/hosts.md)
function addDataPrograms(names: readonly string[]): void {
  for (const name of names) LISTS[name] = {}
}
