import { defineConfig } from "drizzle-kit"

export default defineConfig({
  dialect: "sqlite",
  schema: "./core/store/schema.ts",
  out: "./drizzle",
})
