// Public face of ccode's own git: every git command ccode runs goes through safeGit.
export { configuredFilters, GitError, safeGit, safeGitArgv, safeGitEnv, SAFE_CONFIG, type GitResult, type SafeGitOptions } from "./safe-git.ts"
