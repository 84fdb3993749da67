import { beforeAll, expect, test } from "bun:test"
import { parserDivergence } from "../../core/shell/divergence.ts"
import { loadParser, parseBash } from "../../core/shell/parser.ts"

beforeAll(() => loadParser())

const misread = [
  "cat <<E''OF\nx\nEOF\nid\nE''OF", 'cat <<E""OF\n', 'cat <<E"O"F\n', "cat <<E'O'F\n", "cat <<EOF''\n", "cat <<E$'O'F\n",
  "cat <<-E''OF\n", 'cat << E"O"F\n', "cat <<\t'E'OF\n", "cat <<$'EOF'\n",
  "ls\v#; id", "ls\f#; id", "ls\r#; id", "git status\r\n",
  "x=$'\\\\';id;#'", "echo $'x\\\\' >/dev/null; id #'", "echo a$'\\\\'b", "echo $'\\c\\\\';id", "printf %s $'a\\\\\\\\'",
  "git status \\\n2>/dev/null\\\n#; id", "echo a\\\n#;id",
  // a << inside quotes is text, but only while the quoting is certain: after a here-document body, a
  // command substitution inside double quotes, or a comment (its apostrophes are not quotes)
  "cat <<'X'\ndon't\nX\ncat <<E''OF\nx\nE''OF", "echo \"$(cat <<E''OF\nx\nEOF\nid\nE''OF\n)\"", "ls # it's\ncat <<E''OF\nx\nE''OF",
]
const fine = [
  "git status", "cat <<'EOF'\nx\nEOF", 'cat <<"EOF"\nx\nEOF', "cat <<EOF\nx\nEOF", "cat <<-EOF\n\tx\n\tEOF", "cat <<\\EOF\nx\nEOF",
  "cat <<< 'x'", "cat <<<\"a'b\"", "echo $((1<<2))", "echo $'\\n' $'\\t'", "printf 'a\\nb'", "sort -t $'\\t' a.tsv",
  "echo a \\\n  # a comment", "echo 'x\\\\'", 'echo "\\\\"', "echo $'\\''", "echo a\tb",
  // a step's multi-line output (`name<<EOF` written to $CCODE_OUTPUT) is quoted text, not a here-document
  "printf 'notes<<END\\none\\nEND\\n' >> \"$CCODE_OUTPUT\"", 'echo "notes<<EOF" >> "$CCODE_OUTPUT"', "echo 'a<<E\"\"b'",
]

test("texts the parser misreads are refused with a reason", () => {
  for (const t of misread) expect([t, parserDivergence(t)]).toEqual([t, expect.any(String)])
})

test("ordinary here-documents, $'…' strings and continuations pass", () => {
  for (const t of fine) expect([t, parserDivergence(t)]).toEqual([t, undefined])
})

test("a line of assignments alone ends at its line end: the tree reads a ; there, at the source's offsets", () => {
  const src = "A=1 B=2 # both\nC=3 D=4\necho $A"
  const parsed = parseBash(src)
  expect(parsed.error).toBeUndefined()
  const top = parsed.root.children.map((c) => [c.type, src.slice(c.start, c.end)])
  expect(top).toEqual([["variable_assignments", "A=1 B=2"], [";", " "], ["comment", "# both"], ["variable_assignments", "C=3 D=4"], ["command", "echo $A"]])
})

test("a command that is not assignments alone, or a line end a here-document or alias may follow, stays a misreading", () => {
  for (const t of ["echo x\n\\\ncat a", "A=1 B=2 >out\ncat a", "cat <<E; A=1 B=2\nx\nE\ncat a", "alias x=y; A=1 B=2\nx"]) {
    expect([t, parseBash(t).error]).toEqual([t, expect.any(String)])
  }
})

test("repairs are bounded: past 16 lines of assignments alone the misreading stands", () => {
  expect(parseBash("(A=1 B=2\necho)\n".repeat(16)).error).toBeUndefined()
  expect(parseBash("(A=1 B=2\necho)\n".repeat(17)).error).toContain("past a line end")
})
