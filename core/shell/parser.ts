// The bash parser: web-tree-sitter with the tree-sitter-bash grammar, both WASM files embedded in the
// compiled binary. Loaded lazily, once per process; never on the plain fast path. No other I/O.
import { Language, Parser, type TreeCursor } from "web-tree-sitter"
import coreWasm from "web-tree-sitter/web-tree-sitter.wasm" with { type: "file" }
import bashWasm from "tree-sitter-bash/tree-sitter-bash.wasm" with { type: "file" }

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
    await Parser.init({ wasmBinary: await Bun.file(coreWasm).bytes() })
    const bash = await Language.load(await Bun.file(bashWasm).bytes())
    const p = new Parser()
    p.setLanguage(bash)
    parser = p
  })()
  return loading
}

export function parseBash(source: string): ParsedScript {
  if (!parser) throw new Error("the bash parser is not loaded: await loadParser() first")
  const tree = parser.parse(source)
  if (!tree) return { root: { type: "program", named: true, start: 0, end: source.length, field: null, children: [] }, error: "the parser gave up" }
  try {
    const cursor = tree.walk()
    const state = { error: undefined as string | undefined }
    const root = copy(cursor, state, source)
    cursor.delete()
    return state.error ? { root, error: state.error } : { root }
  } finally {
    tree.delete()
  }
}

function copy(cursor: TreeCursor, state: { error?: string }, source: string): SNode {
  const node: SNode = {
    type: cursor.nodeType,
    named: cursor.nodeIsNamed,
    start: cursor.startIndex,
    end: cursor.endIndex,
    field: cursor.currentFieldName,
    children: [],
  }
  if (!state.error) {
    if (cursor.nodeIsMissing) state.error = `a "${node.type}" is missing at offset ${node.start}`
    else if (node.type === "ERROR") state.error = `bash syntax error near "${source.slice(node.start, Math.min(node.end, node.start + 20))}"`
  }
  if (cursor.gotoFirstChild()) {
    do node.children.push(copy(cursor, state, source))
    while (cursor.gotoNextSibling())
    cursor.gotoParent()
  }
  return node
}
