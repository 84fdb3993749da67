// Walks a tree-sitter-bash syntax tree into simple commands, through every construct that runs one:
// lists, pipelines, substitutions, subshells, groups, control flow, functions, redirects. Pure.
import type { SNode } from "./parser.ts"
import type { Construct } from "./types.ts"
import type { RawCommand, RawRedirect, Stdin, Walked } from "./raw.ts"
import { childScope, dirStack, exportedVars, loaderIn, makeLookup, type Cwd, type Scope, type ShellEnv } from "./scope.ts"
import { evalWord, groupWords, readVariables, type Word } from "./word.ts"
import { readPlain } from "./plain.ts"
import { dirTilde, joinCwd } from "./cwd.ts"
import { afterCommand, assignmentOf } from "./effects.ts"
import { redirect } from "./redirects.ts"
import { TRANSLATED, translated, translatedChild } from "./translated.ts"
import { printed, programText } from "./pipetext.ts"
import { arithmetic, evaluated, expansionRisk, namedDescriptor, names, note, scriptValue, testCommand } from "./walk-arith.ts"
import { parseBash } from "./parser.ts"
import { braceMode, builtinCall, cwdLost, integerRisk, isInteger, setVar, unsetArray } from "./setvars.ts"
import { assign, declaration, removesLoaderHere, type Substitutions } from "./walk-declare.ts"
import { evalScript, lateEffects, trap, lateDirectories, type Outcome } from "./walk-eval.ts"
import { addCtx, flip, groupOutcome, uncarried, withStdin, type Walker } from "./walk-parts.ts"

export function walkScript(root: SNode, src: string, shell: ShellEnv, scope: Scope, cwd: Cwd, context: Construct[]): Walked {
  const w: Walker = { src, shell, out: { commands: [], bare: [], bareCwd: [] } }
  if (src.includes("trap")) w.ends = []
  sequence(w, root.children, scope, cwd, context, [])
  if (w.ends) lateDirectories(w.out.commands, w.ends)
  return w.out
}

const SEPARATORS = new Set([";", ";;", "&", "\n"])

/** Statements run one after another; `&` sends the one before it to the background. */
function sequence(w: Walker, nodes: SNode[], scope: Scope, cwd: Cwd, ctx: Construct[], redirects: RawRedirect[]): Cwd {
  const stmts: { node: SNode; bg: boolean }[] = []
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i]!
    if (n.type === "&" && stmts.length) stmts[stmts.length - 1]!.bg = true
    if (!n.named || n.type === "comment" || SEPARATORS.has(n.type)) continue
    stmts.push({ node: n, bg: false })
  }
  const inner = stmts.length > 1 ? [...ctx, "list" as const] : ctx
  for (const { node, bg } of stmts) {
    if (bg) {
      statement(w, node, childScope(scope), cwd, [...inner, "background"], redirects)
      continue
    }
    const r = statement(w, node, scope, cwd, inner, redirects)
    cwd = joinCwd(r.ok, r.fail)
  }
  w.ends?.push({ at: w.out.commands.length, cwd })
  return cwd
}

function statement(w: Walker, node: SNode, scope: Scope, cwd: Cwd, ctx: Construct[], redirects: RawRedirect[]): Outcome {
  if (cwd && cwdLost(scope)) cwd = null
  const same = { ok: cwd, fail: cwd }
  switch (node.type) {
    case "command":
      return command(w, node, scope, cwd, ctx, redirects, undefined, [])
    case "redirected_statement":
      return redirected(w, node, scope, cwd, ctx, redirects)
    // `$(< FILE)` parses as a bare redirect inside the substitution: bash reads FILE into the word
    case "file_redirect":
    case "herestring_redirect":
    case "heredoc_redirect":
      return redirected(w, { ...node, type: "redirected_statement", children: [node] }, scope, cwd, ctx, redirects)
    case "list":
      return list(w, node.children, scope, cwd, ctx, redirects)
    case "pipeline":
      pipeline(w, node.children.filter((c) => c.named && c.type !== "comment"), scope, cwd, ctx, redirects, undefined)
      return same
    case "subshell":
      sequence(w, node.children, childScope(scope), cwd, [...ctx, "subshell"], redirects)
      return same
    case "compound_statement":
      if (node.children[0]?.type === "((") {
        arithmetic(w, node, scope, 2, 2)
        substitutions(w, node, scope, cwd, ctx)
        return same
      }
      return groupOutcome(cwd, sequence(w, node.children, scope, cwd, [...ctx, "group"], redirects))
    case "if_statement":
    case "elif_clause":
    case "else_clause":
      return groupOutcome(cwd, sequence(w, node.children, scope, cwd, addCtx(ctx, "condition"), redirects))
    case "c_style_for_statement":
    case "while_statement":
      if (node.type === "c_style_for_statement") {
        const body = node.children.find((c) => c.field === "body")
        arithmetic(w, { ...node, end: body?.start ?? node.end }, scope, 0, 0)
      }
      for (const c of node.children) if (c.field !== "body" && c.named) substitutions(w, c, scope, cwd, ctx)
      return groupOutcome(cwd, sequence(w, node.children.filter((c) => c.field === "condition" || c.field === "body"), scope, cwd, addCtx(ctx, "loop"), redirects))
    case "for_statement":
      return forLoop(w, node, scope, cwd, ctx, redirects)
    case "do_group":
      return groupOutcome(cwd, sequence(w, node.children, scope, cwd, ctx, redirects))
    case "case_statement":
      // the subject and the patterns are compared, so each is a use of its value: a loop over
      // `case $GITHUB_TOKEN in "$p$c"*)` rebuilds a secret a character at a time
      for (const c of node.children) if (c.field === "value") compared(w, c, scope, cwd, ctx)
      for (const item of node.children) {
        if (item.type !== "case_item") continue
        for (const c of item.children) if (c.field === "value") compared(w, c, scope, cwd, ctx)
        cwd = joinCwd(cwd, sequence(w, item.children.filter((c) => c.field !== "value"), scope, cwd, addCtx(ctx, "case"), redirects))
      }
      return { ok: cwd, fail: cwd }
    case "function_definition": {
      const name = node.children.find((c) => c.field === "name")
      const inner = childScope(scope)
      inner.functions = [...scope.functions, name ? w.src.slice(name.start, name.end) : ""]
      inner.late = true
      // where the statement lists after it end: the directories a call may run the body in
      w.ends ??= []
      const body = node.children.filter((c) => c.field === "body")
      // `f() { ..; } > FILE`: bash opens the definition's redirects at every call of f
      const own: RawRedirect[] = []
      let stdin: Stdin | undefined
      for (const r of node.children) {
        if (r.field !== "redirect") continue
        substitutions(w, r, inner, cwd, [...ctx, "function"])
        const got = redirect(w, r, inner, cwd)
        if (got?.redirect) own.push(got.redirect)
        if (got?.stdin) stdin = got.stdin
      }
      const before = w.out.commands.length
      const end = withStdin(w, stdin, () => sequence(w, body, inner, cwd, [...ctx, "function"], own))
      uncarried(w, own, before, cwd)
      // the body runs wherever and whenever the function is called: what it sets is not known after
      // the definition, and a directory change in it makes every later directory unknown
      return lateEffects(scope, inner, cwd, end)
    }
    case "negated_command":
      return flip(statement(w, node.children.find((c) => c.named)!, scope, cwd, ctx, redirects))
    case "variable_assignment":
      assign(w, inner(w), node, scope, cwd, ctx, false)
      return same
    case "variable_assignments": {
      // tree-sitter drops a lone `-` between assignments (`A=1 - b=2` runs the command `-` with A set):
      // text between the assignments is a command it lost, read plainly or not judged at all
      const lost = node.children.some((c, i) => i > 0 && w.src.slice(node.children[i - 1]!.end, c.start).trim() !== "")
      if (lost) {
        const read = readPlain(w.src.slice(node.start, node.end), loaderIn(scope), exportedVars(scope), cwd, ctx)
        if (read) w.out.commands.push(...read.commands)
        else note(w, `${w.src.slice(node.start, node.end).slice(0, 60)}: words the parser dropped`)
        return same
      }
      for (const c of node.children) if (c.type === "variable_assignment") assign(w, inner(w), c, scope, cwd, ctx, false)
      return same
    }
    case "declaration_command":
      declaration(w, inner(w), node, scope, cwd, ctx)
      return same
    case "unset_command":
      node = { ...node, children: node.children.filter((c) => !c.named || !namedDescriptor(w, [c], scope)) }
      names(w, node.children.filter((c) => c.named), scope, "unset")
      removesLoaderHere(w, "unset", node.children.filter((c) => c.named), scope, ctx)
      for (const c of node.children) if (c.named && c.type !== "word") scope.vars.set(w.src.slice(c.start, c.end), "")
      for (const c of node.children) if (c.named) unsetArray(scope, w.src.slice(c.start, c.end))
      return same
    case "test_command":
      testCommand(w, node, scope)
      // `[[ $GITHUB_TOKEN == P* ]]`, `=~`, `>`, `-n`: the operands are compared (and shown by set -x)
      compared(w, node, scope, cwd, ctx)
      return same
    default:
      // test_command, comment, ...: nothing runs but what their substitutions run
      substitutions(w, node, scope, cwd, ctx)
      return same
  }
}

/** Words a `case` or `[[ ]]` compares: what their substitutions run, and the variables they read (a
 *  secret one is a use of its value, as `test -n "$GITHUB_TOKEN"` is). */
function compared(w: Walker, node: SNode, scope: Scope, cwd: Cwd, ctx: Construct[]): void {
  readVariables(node, w.src, makeLookup(scope, w.shell, cwd))
  substitutions(w, node, scope, cwd, ctx)
}

/** `a && b`: b runs where a succeeded; `a || b`: where a failed. */
function list(w: Walker, children: SNode[], scope: Scope, cwd: Cwd, ctx: Construct[], redirects: RawRedirect[]): Outcome {
  const inner = addCtx(ctx, "list")
  const left = children.find((c) => c.named && c.type !== "comment")
  const opIndex = children.findIndex((c) => c.type === "&&" || c.type === "||")
  const right = children.slice(opIndex + 1).find((c) => c.named && c.type !== "comment")
  if (!left || opIndex < 0 || !right) {
    const end = sequence(w, children, scope, cwd, inner, redirects)
    return { ok: end, fail: end }
  }
  const a = statement(w, left, scope, cwd, inner, redirects)
  if (children[opIndex]!.type === "&&") {
    const b = statement(w, right, scope, a.ok, inner, redirects)
    return { ok: b.ok, fail: joinCwd(a.fail, b.fail) }
  }
  const b = statement(w, right, scope, a.fail, inner, redirects)
  return { ok: joinCwd(a.ok, b.ok), fail: b.fail }
}

/** Every stage runs in its own subshell; each one after the first reads what the ones before wrote. */
function pipeline(w: Walker, stages: SNode[], scope: Scope, cwd: Cwd, ctx: Construct[], redirects: RawRedirect[], first: RawCommand | undefined): void {
  const inner = addCtx(ctx, "pipeline")
  const from: string[] = first ? [programText(first)] : []
  let script = first ? printed(first) : undefined
  for (const stage of stages) {
    const before = w.out.commands.length
    const stdin: Stdin | undefined = from.length ? { kind: "pipe", from: [...from], ...(script ? { script } : {}) } : undefined
    if (stage.type === "command") command(w, stage, childScope(scope), cwd, inner, redirects, stdin, [])
    else if (stage.type === "redirected_statement") redirected(w, stage, childScope(scope), cwd, inner, redirects, stdin)
    else withStdin(w, stdin, () => statement(w, stage, childScope(scope), cwd, inner, redirects))
    const added = w.out.commands.slice(before).filter((c) => c.context.length === inner.length)
    for (const c of added) from.push(programText(c))
    script = added.length === 1 ? printed(added[0]!) : undefined
  }
}

function forLoop(w: Walker, node: SNode, scope: Scope, cwd: Cwd, ctx: Construct[], redirects: RawRedirect[]): Outcome {
  const lookup = makeLookup(scope, w.shell, cwd)
  const values = node.children.filter((c) => c.field === "value")
  for (const c of values) substitutions(w, c, scope, cwd, ctx)
  // a loop over literal integers (`for i in 1 2 3`) keeps an integer: arithmetic on it is inert
  const words = groupWords(w.src, values).flatMap((g) => evalWord(g, w.src, lookup, false, braceMode(scope)))
  const integer = words.length > 0 && words.every((x) => x.value !== undefined && /^\d+$/.test(x.value)) ? words[0]!.value : undefined
  for (const c of node.children) {
    if (c.field !== "variable") continue
    const name = w.src.slice(c.start, c.end)
    if (integer === undefined && isInteger(scope, name)) note(w, integerRisk("for", name))
    note(w, setVar(scope, name, integer, false))
  }
  // select reads the answer into REPLY: a line of its input, not known here
  if (node.children[0]?.type === "select") {
    if (isInteger(scope, "REPLY")) note(w, integerRisk("select", "REPLY"))
    note(w, setVar(scope, "REPLY", undefined, false))
  }
  const body = node.children.filter((c) => c.field === "body")
  return groupOutcome(cwd, sequence(w, body, scope, cwd, addCtx(ctx, "loop"), redirects))
}

function redirected(w: Walker, node: SNode, scope: Scope, cwd: Cwd, ctx: Construct[], outer: RawRedirect[], piped?: Stdin): Outcome {
  const body = node.children.find((c) => c.field === "body")
  const own: RawRedirect[] = []
  let stdin = piped
  let pipeTail: SNode[] | undefined
  let listTail: { op: string; right: SNode } | undefined
  const extraArgs: SNode[] = []
  // tree-sitter hangs a redirect of a list's last command on the whole list (`cd /x && cat < $PWD/f`):
  // the words are expanded after the commands before it ran, where $PWD is not known here
  const at = body?.type === "list" ? null : cwd
  for (const r of node.children) {
    if (r === body || !r.named) continue
    if (r.type === "heredoc_redirect") {
      for (const c of r.children) if (c.type === "heredoc_body") substitutions(w, c, scope, cwd, ctx)
    } else substitutions(w, r, scope, cwd, ctx)
    const got = redirect(w, r, scope, at)
    if (got?.redirect) own.push(got.redirect)
    if (got?.stdin) stdin = got.stdin
    if (r.type !== "heredoc_redirect") continue
    // tree-sitter hangs what follows a heredoc's first line (`| sh`, `&& x`, more args) under the redirect
    for (const c of r.children) {
      if (c.type === "pipeline") pipeTail = c.children.filter((x) => x.named && x.type !== "comment")
      else if (c.field === "right") listTail = { op: r.children.find((x) => x.field === "operator")?.type ?? ";", right: c }
      else if (c.field === "argument") extraArgs.push(c)
      else if (c.field === "redirect") {
        const more = redirect(w, c, scope, at)
        if (more?.redirect) own.push(more.redirect)
      }
    }
  }
  const run = (cwdIn: Cwd, stdinIn: Stdin | undefined, sc: Scope, cx: Construct[]): Outcome => {
    if (!body) {
      const files = own.filter((r) => r.dup === undefined)
      w.out.bare.push(...files)
      for (let i = 0; i < files.length; i++) w.out.bareCwd.push(cwdIn)
      return { ok: cwdIn, fail: cwdIn }
    }
    if (body.type === "command") return command(w, body, sc, cwdIn, cx, [...outer, ...own], stdinIn, extraArgs)
    return withStdin(w, stdinIn, () => statement(w, body, sc, cwdIn, cx, [...outer, ...own]))
  }
  let outcome: Outcome
  const before = w.out.commands.length
  // a list's hung redirect is its last command's, opened where the list ends up, though every command
  // of the list carries it (`cd .git && [[ x ]] > hooks/f`: the cd carries it in the first directory)
  const open = (o: Outcome) => (body?.type === "list" ? uncarried(w, own, w.out.commands.length, joinCwd(o.ok, o.fail)) : uncarried(w, body ? own : [], before, at))
  if (pipeTail) {
    const inner = addCtx(ctx, "pipeline")
    open(run(cwd, stdin, childScope(scope), inner))
    pipeline(w, pipeTail, scope, cwd, ctx, outer, w.out.commands[before])
    outcome = { ok: cwd, fail: cwd }
  } else {
    outcome = run(cwd, stdin, scope, listTail ? addCtx(ctx, "list") : ctx)
    open(outcome)
  }
  if (!listTail) return outcome
  const inner = addCtx(ctx, "list")
  if (listTail.op === "&&") return statement(w, listTail.right, scope, outcome.ok, inner, outer)
  if (listTail.op === "||") return statement(w, listTail.right, scope, outcome.fail, inner, outer)
  return statement(w, listTail.right, scope, joinCwd(outcome.ok, outcome.fail), inner, outer)
}

function command(w: Walker, node: SNode, scope: Scope, cwd: Cwd, ctx: Construct[], redirects: RawRedirect[], stdin: Stdin | undefined, extraArgs: SNode[]): Outcome {
  if (cwd && cwdLost(scope)) cwd = null
  const lookup = makeLookup(scope, w.shell, cwd)
  const assignments: RawCommand["assignments"] = []
  const own: RawRedirect[] = []
  const wordNodes: SNode[] = []
  let textEnd = node.end
  for (const c of node.children) {
    if (c.type === "variable_assignment") {
      substitutions(w, c, scope, cwd, ctx)
      const a = assignmentOf(w.src, c, lookup)
      if (a) assignments.push({ name: a.name, value: a.value })
    } else if (c.type === "command_name") {
      substitutions(w, c, scope, cwd, ctx)
      wordNodes.push(...c.children)
    } else if (c.field === "argument") {
      substitutions(w, c, scope, cwd, ctx)
      wordNodes.push(c)
    } else if (c.field === "redirect" || c.type.endsWith("_redirect")) {
      substitutions(w, c, scope, cwd, ctx)
      const got = redirect(w, c, scope, cwd)
      if (got?.redirect) own.push(got.redirect)
      if (got?.stdin) stdin = got.stdin
    } else if (c.named) substitutions(w, c, scope, cwd, ctx)
  }
  for (const a of extraArgs) {
    substitutions(w, a, scope, cwd, ctx)
    wordNodes.push(a)
    textEnd = Math.max(textEnd, a.end)
  }
  const words: Word[] = []
  for (const [i, group] of groupWords(w.src, wordNodes).entries()) {
    // bash reads `{NAME}>` as a descriptor variable after the command name only (`{x}>f` alone runs `{x}`)
    if (i > 0 && namedDescriptor(w, group, scope)) continue
    for (const word of evalWord(group, w.src, lookup, "argument", braceMode(scope))) words.push(word.tilde ? dirTilde(word, scriptValue(scope), dirStack(scope)) : word)
  }
  const raw: RawCommand = {
    words,
    assignments,
    redirects: [...redirects, ...own],
    context: ctx,
    text: w.src.slice(node.start, textEnd),
    cwd,
    loader: loaderIn(scope),
  }
  stdin ??= w.inherited
  if (stdin) raw.stdin = stdin
  const exported = exportedVars(scope)
  if (exported.size) raw.exported = exported
  const name = words[0]?.value
  if (name === "let") {
    for (const a of words.slice(1)) note(w, a.value === undefined ? `let ${a.text} is not static` : evaluated(w, a.value, scope, false, true))
  }
  if (name && scope.functions.includes(name) && (ctx.includes("background") || ctx.includes("pipeline"))) raw.forkBomb = true
  w.out.commands.push(raw)
  const call = builtinCall(words)
  const run = (text: string, inner: Scope) => inline(w, text, inner, cwd, ctx)
  if (call.name === "eval") return evalScript(call.args, scope, cwd, run)
  if (call.name === "trap") return trap(call.args, scope, cwd, run)
  return afterCommand(words, scope, cwd, w.shell.home, (why) => note(w, why), lookup)
}

/** Walk a script given as text (eval's, a trap's) in this shell's scope, for what it sets and where it
 *  ends; its commands are analysed on their own as the nested script of the eval or trap. */
function inline(w: Walker, text: string, scope: Scope, cwd: Cwd, ctx: Construct[]): Cwd {
  const parsed = parseBash(text)
  if (parsed.error) return null
  const scratch: Walker = { src: text, shell: w.shell, out: { commands: [], bare: [], bareCwd: [] } }
  const end = sequence(scratch, parsed.root.children, scope, cwd, ctx, [])
  for (const why of scratch.out.unresolved ?? []) note(w, why)
  if (scratch.out.findings) (w.out.findings ??= []).push(...scratch.out.findings)
  return end
}

/** The walk of substitutions inside a node, for the declarations' reader (walk-declare.ts). */
function inner(w: Walker): Substitutions {
  return (node, scope, cwd, ctx) => substitutions(w, node, scope, cwd, ctx)
}

/** $(..), `..`, <(..), >(..) anywhere inside a node run before (or beside) the command that holds them. */
function substitutions(w: Walker, node: SNode, scope: Scope, cwd: Cwd, ctx: Construct[]): void {
  if (node.type === "command_substitution" || node.type === "process_substitution") {
    substitutions(w, { ...node, type: "", children: [node] }, scope, cwd, ctx)
    return
  }
  // $(( expr )) and the old $[ expr ]
  if (node.type === "arithmetic_expansion") w.src.startsWith("$[", node.start) ? arithmetic(w, node, scope, 2, 1) : arithmetic(w, node, scope, 3, 2)
  if (node.type === "expansion") expansionRisk(w, node, scope)
  if (node.type === "translated_string" || translated(w.src, node)) (w.out.findings ??= []).push(TRANSLATED)
  for (const c of node.children) {
    if (translatedChild(w.src, node, c)) (w.out.findings ??= []).push(TRANSLATED)
    if (c.type === "command_substitution") sequence(w, c.children, childScope(scope), cwd, [...ctx, "substitution"], [])
    else if (c.type === "process_substitution") sequence(w, c.children, childScope(scope), cwd, [...ctx, "process_substitution"], [])
    else if (c.children.length) substitutions(w, c, scope, cwd, ctx)
  }
}
