// Which database a --db / CCODE_DB value names: a postgres:// (or postgresql://) URL is PostgreSQL,
// anything else is a SQLite file. Imports nothing: the CLI's start-up path reads it.

// any value that starts like one counts (postgres:/host, POSTGRESQL:...): a mistyped URL must fail as
// a URL, never become a SQLite file of that name
export function isPostgresUrl(value: string): boolean {
  return /^postgres(ql)?:/i.test(value.trim())
}

/** The URL as it may be shown and logged: its password (in the URL or its query) replaced. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url.trim())
    if (parsed.password) parsed.password = "***"
    for (const key of [...parsed.searchParams.keys()]) if (/pass|secret|token|key/i.test(key)) parsed.searchParams.set(key, "***")
    return parsed.toString()
  } catch {
    // not parseable: show only the scheme, never the rest (it may hold a password)
    return `${url.trim().split(":")[0]}://(unparseable URL)`
  }
}
