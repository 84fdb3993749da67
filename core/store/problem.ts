// Store failures as errors a person can act on (exit 2). Pure, and without bun:sqlite: cli/errors.ts
// maps errors to exit codes for every command, so this is loaded even where no database is opened.

export class StoreError extends Error {
  readonly exitCode = 2
}

/**
 * SQLite failures a person can act on, as clear errors (exit 2): a full disk, a corrupt or foreign
 * file, a read-only location. Anything else is not recognised (undefined).
 */
export function storeProblem(error: unknown, path?: string): StoreError | undefined {
  const code = String((error as { code?: unknown })?.code ?? "")
  const where = path ?? (error as { filename?: string })?.filename ?? "the database"
  if (code.startsWith("SQLITE_FULL")) {
    return new StoreError(`the disk holding ${where} is full (SQLite: database or disk is full); nothing more was written. Free some space (\`ccode runs prune\` removes old runs), then \`ccode resume\` continues where it stopped`)
  }
  if (code.startsWith("SQLITE_CORRUPT") || code.startsWith("SQLITE_NOTADB")) {
    return new StoreError(`${where} is damaged or not a ccode database (${code}); ccode will not run on it. Move it aside (or point --db / CCODE_DB elsewhere) to start a fresh one; \`sqlite3 ${where} .recover\` may save its rows`)
  }
  if (code.startsWith("SQLITE_READONLY")) {
    return new StoreError(`${where} cannot be written (read-only file or folder); inspection commands (runs, audit) still work — run others where CCODE_HOME / --db is writable`)
  }
  if (code.startsWith("SQLITE_IOERR") && /no space|full/i.test((error as Error).message)) {
    return storeProblem({ code: "SQLITE_FULL" }, path)
  }
  return undefined
}
