import { expect, test } from "bun:test"
import { parserDivergence } from "../../core/shell/divergence.ts"

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
