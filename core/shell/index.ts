// Public face of shell analysis: parse a command with tree-sitter-bash (or the plain fast path), split it
// into the simple commands rules must cover, classify their risk. Pure: no fs, no clock, no process.env.
import { analyzeSync, ParserNotLoaded, type AnalyzeContext, type AnalyzeOptions } from "./analyze.ts"
import { loadParser, parserReady } from "./parser.ts"
import type { ShellAnalysis } from "./types.ts"

export type { ShellAnalysis, SimpleCommand, TouchedPath, Construct, Redirect } from "./types.ts"
export type { AnalyzeContext, AnalyzeOptions } from "./analyze.ts"
export { couldMatchCommandPattern, matchCommandPattern } from "./match.ts"
export { isPlainCommand } from "./plain.ts"
export { isInsideFold, unicodeFold } from "./cwd.ts"
export { startupFile } from "./startup.ts"
export { credentialsBelow, homeSecrets } from "./secretreads.ts"
export { braceWords, MAX_BRACE_WORDS } from "./braces.ts"
export { splitBestEffort, splitPattern } from "./pattern.ts"
export { loadParser, parserReady } from "./parser.ts"
export { ParserNotLoaded, MAX_COMMAND_BYTES } from "./analyze.ts"

/** Analyse a command; loads tree-sitter on first need (never for plain commands). */
export async function analyzeShell(command: string, ctx: AnalyzeContext, options?: AnalyzeOptions): Promise<ShellAnalysis> {
  if (!parserReady()) {
    try {
      return analyzeSync(command, ctx, options)
    } catch (e) {
      if (!(e instanceof ParserNotLoaded)) throw e
      await loadParser()
    }
  }
  return analyzeSync(command, ctx, options)
}

/** The same analysis, synchronously: throws ParserNotLoaded when the command needs tree-sitter and
 *  loadParser() has not finished yet. */
export function analyzeShellSync(command: string, ctx: AnalyzeContext, options?: AnalyzeOptions): ShellAnalysis {
  return analyzeSync(command, ctx, options)
}
