import { loadParser, analyzeShell } from "./core/shell/index.ts"
await loadParser()
const a = await analyzeShell(process.argv[2]!, { cwd: "/w", workspace: "/w", home: "/h", env: {} })
console.log(JSON.stringify(a.paths), a.risk)
