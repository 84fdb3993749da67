// Audit rows in the export formats of `ccode audit`: json, jsonl, csv, md (table is the CLI's).
// Pure. Rows are redacted once more on the way out: a writer that forgot to is not a leak.
import type { Redactor } from "../redact/index.ts"
import { VIEW_FIELDS, type AuditView } from "./query.ts"

export const EXPORT_FORMATS = ["table", "json", "jsonl", "csv", "md"] as const
export type ExportFormat = (typeof EXPORT_FORMATS)[number]

export function redactView(view: AuditView, redactor: Redactor): AuditView {
  if (!redactor.enabled) return view
  return {
    ...view,
    action: view.action === null ? null : redactor.text(view.action),
    reason: view.reason === null ? null : redactor.text(view.reason),
    data: redactor.value(view.data),
  }
}

export function renderExport(views: AuditView[], format: Exclude<ExportFormat, "table">): string {
  switch (format) {
    case "json":
      return `${JSON.stringify(views, null, 2)}\n`
    case "jsonl":
      return views.map((v) => `${JSON.stringify(v)}\n`).join("")
    case "csv":
      return [VIEW_FIELDS.join(","), ...views.map((v) => VIEW_FIELDS.map((f) => csvCell(v[f])).join(","))].map((l) => `${l}\r\n`).join("")
    case "md":
      return markdown(views)
  }
}

const MD_FIELDS = ["id", "ts", "run", "call", "type", "actor", "tool", "action", "result", "risk", "auto_approved", "reason"] as const

function markdown(views: AuditView[]): string {
  const lines = [`| ${MD_FIELDS.join(" | ")} |`, `|${MD_FIELDS.map(() => "---").join("|")}|`]
  for (const v of views) lines.push(`| ${MD_FIELDS.map((f) => mdCell(v[f])).join(" | ")} |`)
  return `${lines.join("\n")}\n`
}

/** RFC 4180 quoting; a text cell that a spreadsheet would run as a formula gets a leading `'`. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return ""
  let text = typeof value === "string" ? value : typeof value === "object" ? JSON.stringify(value) : String(value)
  if (typeof value === "string" && /^[=+@\t\r]|^-(?![\d.])/.test(text)) text = `'${text}`
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

export function mdCell(value: unknown): string {
  if (value === null || value === undefined) return ""
  const text = typeof value === "string" ? value : JSON.stringify(value)
  return text.replace(/\\/g, "\\\\").replace(/\|/g, "\\|").replace(/\r?\n/g, "<br>")
}
