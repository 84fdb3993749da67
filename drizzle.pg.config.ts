import { defineConfig } from "drizzle-kit"

// The PostgreSQL store's migrations (drizzle.config.ts is SQLite's): `bun run db:generate` runs both.
export default defineConfig({
  dialect: "postgresql",
  schema: "./core/runstore/pg/schema.ts",
  out: "./drizzle/pg",
})
