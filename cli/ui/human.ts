// The person at the terminal: approval, breakpoint and in-flight prompts (one at a time, even
// with parallel runs). Non-interactive: a Human that cannot answer, so runs pause instead.
import { consola } from "consola"
import type { ApprovalAnswer, ApprovalPrompt, BreakpointAnswer, Human, InFlightAnswer } from "../../core/runner/context.ts"
import { RISK_STYLE, style } from "./style.ts"
import { grantLabel } from "../../core/policy/grants.ts"
import { terminalSafe } from "./safe-text.ts"

export { nobody } from "../../core/runner/context.ts"

type Choice<T extends string> = { value: T; label: string }

/** The answers a person can give, the same wherever they are asked (line prompt or panel). */
export const CHOICES = {
  breakpoint: [
    { value: "continue", label: "continue" },
    { value: "skip", label: "skip this step" },
    { value: "stop", label: "stop here (resume later)" },
  ] as Choice<BreakpointAnswer>[],
  inFlight: [
    { value: "rerun", label: "run it again" },
    { value: "done", label: "it finished: mark it done" },
    { value: "skip", label: "skip it" },
    { value: "fail", label: "mark it failed" },
  ] as Choice<InFlightAnswer>[],
  stillRunning: [
    { value: "wait", label: "wait for it to end" },
    { value: "kill", label: "kill it (its whole process group)" },
  ] as Choice<"wait" | "kill">[],
  guard: [
    { value: "continue", label: "continue once" },
    { value: "stop", label: "stop (resume later)" },
  ] as Choice<"continue" | "stop">[],
}

/** Approval answers; "allow for this run" only when a grant is offered, never for critical. */
export function approvalChoices(p: ApprovalPrompt): Choice<ApprovalAnswer>[] {
  const options: Choice<ApprovalAnswer>[] = [{ value: "once", label: "allow once" }]
  if (p.grant && p.decision.risk !== "critical") options.push({ value: "run", label: `allow for this run: ${grantLabel(p.grant)}` })
  options.push({ value: "deny", label: "deny" }, { value: "stop", label: "deny and stop the run" })
  return options
}

/**
 * `interrupt`: what Ctrl-C at a prompt does — the same as Ctrl-C while a step runs: the run stops with
 * exit 130, resumable, and the question asked stays open (an approval stays a pending request).
 */
export function terminalHuman(interrupt: () => void = () => {}): Human {
  let queue: Promise<unknown> = Promise.resolve()
  const oneAtATime = <T>(fn: () => Promise<T>): Promise<T> => {
    const next = queue.then(fn, fn)
    queue = next.catch(() => undefined)
    return next
  }
  // Ctrl-C at a prompt (consola answers null): interrupt the run and give the answer that decides nothing
  const select = async <T extends string, L extends string>(message: string, options: { value: T; label: string }[], later: L): Promise<T | L> => {
    const answer = await consola.prompt(terminalSafe(message, true), { type: "select", options: options.map((o) => ({ ...o, label: terminalSafe(o.label) })), cancel: "null" })
    if (answer === null || answer === undefined) {
      interrupt()
      return later
    }
    return answer as unknown as T
  }
  return {
    interactive: true,
    approve: (p, timeoutMs) =>
      oneAtATime(async () => {
        const d = p.decision
        const rules = d.rules.map((r) => `${r.id} (${r.decision}, ${r.source})`).join(", ") || "none"
        // a diff shows file content: it must not drive the terminal (JSON escapes control characters itself)
        const what = p.diff ? `  change:\n${terminalSafe(p.diff).replace(/^/gm, "    ")}` : `  args: ${JSON.stringify(p.args)}\n`
        process.stderr.write(
          `\n${style.yellow("?")} ${style.bold(p.tool)} ${style.gray(p.step ? `step ${p.step}` : "")}\n` +
            `${what}  risk: ${(RISK_STYLE[d.risk] ?? String)(d.risk)}   rules: ${rules}\n  why:  ${d.reason}\n`,
        )
        const options = approvalChoices(p)
        const timeout = new Promise<"timeout">((resolve) => setTimeout(() => resolve("timeout"), timeoutMs).unref())
        return Promise.race([select("Allow this call?", options, "timeout"), timeout])
      }),
    breakpoint: (_runId, step, title) =>
      oneAtATime(() =>
        select(`Breakpoint before step ${style.bold(step)}: ${title}`, CHOICES.breakpoint, "stop"),
      ),
    inFlight: (_runId, step, title) =>
      oneAtATime(() =>
        select(`Step ${style.bold(step)} (${title}) was running when ccode stopped; it may or may not have finished.`, CHOICES.inFlight, "later"),
      ),
    stillRunning: (_runId, step, where) =>
      oneAtATime(() =>
        select(`Step ${style.bold(step)} is ${where}, left over from the ccode that stopped.`, CHOICES.stillRunning, "later"),
      ),
    question: (_runId, questions, options) =>
      oneAtATime(async () => {
        const message = questions.join("\n")
        if (options?.length) return select(message, options.map((o) => ({ value: o, label: o })), "")
        const answer = await consola.prompt(terminalSafe(message, true), { type: "text", cancel: "null" })
        return String(answer ?? "")
      }),
    guard: (_runId, guard, reason) =>
      oneAtATime(() =>
        select(`Guard ${style.bold(guard)} fired: ${reason}`, CHOICES.guard, "stop"),
      ),
  }
}
