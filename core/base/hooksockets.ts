// Where the warm hook servers' sockets live: one private folder in ccode's data folder (CCODE_HOME). The
// sandbox hides it and the shell analysis counts it as ccode's own files, so both name it from here.
import { join } from "node:path"

/** The folder of the warm hook servers' sockets below a ccode data folder. */
export function hookSocketDir(ccodeHome: string): string {
  return join(ccodeHome, "hook-warm")
}
