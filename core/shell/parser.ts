// The bash parser: web-tree-sitter with the tree-sitter-bash grammar, both WASM files embedded in the
// compiled binary. Loaded lazily, once per process, never on the plain fast path; reading those two
// embedded files is the only I/O in core/shell.
import type { Language, Node, Parser, TreeCursor } from "web-tree-sitter"
import coreWasm from "web-tree-sitter/web-tree-sitter.wasm" with { type: "file" }
import bashWasm from "tree-sitter-bash/tree-sitter-bash.wasm" with { type: "file" }
import { treeDivergence } from "./divergence.ts"

/** A syntax node copied out of WASM memory into plain data, so walking it costs no boundary crossings. */
export interface SNode {
  type: string
  named: boolean
  start: number
  end: number
  field: string | null
  children: SNode[]
}

export interface ParsedScript {
  root: SNode
  /** the tree holds ERROR or MISSING nodes: bash would read it differently or not at all */
  error?: string
}

let parser: Parser | undefined
let loading: Promise<void> | undefined

export function parserReady(): boolean {
  return parser !== undefined
}

/** Initialise tree-sitter once (about 40 ms); later calls return at once. */
export function loadParser(): Promise<void> {
  loading ??= (async () => {
    // the JS glue is imported here too: evaluating it costs milliseconds a plain command never pays
    const { Language, Parser } = await import("web-tree-sitter")
    await Parser.init({ wasmBinary: await Bun.file(coreWasm).bytes() })
    const bash = await Language.load(await Bun.file(bashWasm).bytes())
    const p = new Parser()
    p.setLanguage(bash)
    parser = p
  })()
  return loading
}

/** Parse a script. Where the parser reads a line of assignments alone on into the next line, that line
 *  end (same meaning to bash) is read as a `;` and the text parsed again, a bounded number of times: the
 *  tree's offsets are the source's, a `;` node may stand where the source has a line end or blank. */
export function parseBash(source: string): ParsedScript {
  if (!parser) throw new Error("the bash parser is not loaded: await loadParser() first")
  let text = source
  for (let repairs = 0; ; repairs++) {
    const parsed = parseOnce(parser, text)
    if (parsed.lineEnd === undefined || repairs === MAX_REPAIRS) return { root: parsed.root, error: parsed.error }
    text = `${text.slice(0, parsed.lineEnd)};${text.slice(parsed.lineEnd + 1)}`
  }
}

// lines of assignments alone re-read per script (each one parse more); past this the misreading stands
const MAX_REPAIRS = 16

function parseOnce(p: Parser, source: string): ParsedScript & { lineEnd?: number } {
  const tree = p.parse(source)
  if (!tree) return { root: { type: "program", named: true, start: 0, end: source.length, field: null, children: [] }, error: "the parser gave up" }
  try {
    const cursor = tree.walk()
    const root = copy(cursor, names(tree.language))
    cursor.delete()
    if (tree.rootNode.hasError) return { root, error: firstError(tree.rootNode, source) }
    const misread = treeDivergence(root, source)
    return misread ? { root, error: misread.why, lineEnd: misread.lineEnd } : { root }
  } finally {
    tree.delete()
  }
}

interface Names {
  types: string[]
  named: boolean[]
  fields: (string | null)[]
}

let cached: Names | undefined

// node type and field names by id, read once: each lookup through the cursor would cross into WASM
function names(lang: Language): Names {
  if (cached) return cached
  const types: string[] = []
  const named: boolean[] = []
  for (let id = 0; id < lang.nodeTypeCount; id++) {
    types.push(lang.nodeTypeForId(id) ?? "")
    named.push(lang.nodeTypeIsNamed(id))
  }
  cached = { types, named, fields: [...lang.fields] }
  return cached
}

function copy(cursor: TreeCursor, n: Names): SNode {
  const id = cursor.nodeTypeId
  const node: SNode = {
    type: n.types[id] ?? cursor.nodeType,
    named: n.named[id] ?? cursor.nodeIsNamed,
    start: cursor.startIndex,
    end: cursor.endIndex,
    field: n.fields[cursor.currentFieldId] ?? null,
    children: [],
  }
  if (cursor.gotoFirstChild()) {
    do node.children.push(copy(cursor, n))
    while (cursor.gotoNextSibling())
    cursor.gotoParent()
  }
  return node
}

function firstError(node: Node, source: string): string {
  if (node.isMissing) return `a "${node.type}" is missing at offset ${node.startIndex}`
  if (node.isError) return `bash syntax error near "${source.slice(node.startIndex, Math.min(node.endIndex, node.startIndex + 20))}"`
  for (const child of node.children) if (child.hasError || child.isMissing) return firstError(child, source)
  return "bash syntax error"
}
