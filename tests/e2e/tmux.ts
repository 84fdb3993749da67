// Drive the compiled ccode in a real terminal (tmux) as a person would: type keys, read the screen.
// Each terminal gets its own tmux server (-L), so tests never touch anyone else's sessions.
import { rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { binary, type Sandbox } from "./harness.ts"

export interface Terminal {
  /** the screen as text (escapes: with colour/attribute escape sequences) */
  screen(escapes?: boolean): string
  /** keys as tmux names them: "p", "Down", "Enter", "C-c" */
  press(...keys: string[]): void
  /** poll the screen until `check` holds; throws with the last screen after timeoutMs */
  waitFor(check: string | RegExp | ((screen: string) => boolean), timeoutMs?: number): Promise<string>
  /** a tmux format of the pane, e.g. #{alternate_on} */
  pane(format: string): string
  /** pid of the process running in the pane (the shell running ccode) */
  pid(): number
  kill(): void
}

let count = 0

/**
 * Start `ccode <args>` in a new terminal of cols x rows. After ccode exits the pane prints
 * `EXIT=<code>` and the terminal's line mode (`stty -a`), then waits, so the end state can be read.
 */
export async function terminal(sb: Sandbox, args: string, opts: { cols?: number; rows?: number; env?: Record<string, string> } = {}): Promise<Terminal> {
  const socket = `ccode-test-${process.pid}-${++count}`
  const env = { ...sb.env, TERM: "xterm-256color", NO_COLOR: "", ...opts.env }
  const script = join(sb.root, `terminal-${count}.sh`)
  const exports = Object.entries(env).map(([k, v]) => `export ${k}='${v.replaceAll("'", "'\\''")}'`).join("\n")
  writeFileSync(script, `${exports}\nunset CI\ncd '${sb.work}'\n'${await binary()}' ${args}\necho "EXIT=$?"\nstty -a | tr ' ;' '\\n\\n' | grep -x -- '-\\{0,1\\}icanon'\nsleep 600\n`)
  const tmux = (...a: string[]) => Bun.spawnSync(["tmux", "-L", socket, ...a], { stdout: "pipe", stderr: "pipe" })
  const started = tmux("new-session", "-d", "-s", "t", "-x", String(opts.cols ?? 100), "-y", String(opts.rows ?? 30), `sh '${script}'`)
  if (started.exitCode !== 0) throw new Error(`tmux: ${started.stderr.toString()}`)
  // the server's socket file outlives kill-server: removed by kill()
  const socketPath = tmux("display-message", "-p", "-t", "t", "#{socket_path}").stdout.toString().trim()
  const screen = (escapes = false) => tmux("capture-pane", "-p", ...(escapes ? ["-e"] : []), "-t", "t").stdout.toString()
  return {
    screen,
    press: (...keys) => void tmux("send-keys", "-t", "t", ...keys),
    async waitFor(check, timeoutMs = 30_000) {
      const test = typeof check === "function" ? check : (s: string) => (typeof check === "string" ? s.includes(check) : check.test(s))
      const until = Date.now() + timeoutMs
      let last = ""
      while (Date.now() < until) {
        last = screen()
        if (test(last)) return last
        await Bun.sleep(150)
      }
      throw new Error(`the screen never showed ${String(check)}; last screen:\n${last}`)
    },
    pane: (format) => tmux("display-message", "-p", "-t", "t", format).stdout.toString().trim(),
    pid: () => Number(tmux("display-message", "-p", "-t", "t", "#{pane_pid}").stdout.toString().trim()),
    kill() {
      tmux("kill-server")
      if (socketPath.includes(socket)) rmSync(socketPath, { force: true })
    },
  }
}
