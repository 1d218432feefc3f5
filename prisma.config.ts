import { defineConfig } from "prisma/config";

// The console applies prisma/migrations itself (lib/db/migrations.ts); the datasource URL is only
// read by Prisma's own CLI (`prisma migrate deploy`, `prisma studio`) where its engine is available.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://localhost/registry" },
});
