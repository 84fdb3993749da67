// Public face of the audit log: the hash chain, the writer, queries and exports, verify, report.
export { AUDIT_ACTORS, AUDIT_RESULTS, AUDIT_TYPES, GENESIS, rowHash, type AuditActor, type AuditEntry, type AuditResult, type AuditType, type ChainedRow } from "./chain.ts"
export { appendAudit, appendAuditRows, type AuditInput } from "./write.ts"
export { AuditFilterError, parseFilter, parseTime, type AuditFilter, type FilterFlags } from "./filter.ts"
export { auditView, queryAudit, resolveAuditRun, AuditQueryError, VIEW_FIELDS, type AuditView } from "./query.ts"
export { csvCell, EXPORT_FORMATS, redactView, renderExport, type ExportFormat } from "./export.ts"
export { verifyChain, verifyStore, type ChainHead, type ChainProblem, type VerifyResult } from "./verify.ts"
export { buildReport, renderReport, type RunInfo, type RunReport } from "./report.ts"
