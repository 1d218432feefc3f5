import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname),
      // The data-access layer marks itself server-only for Next; tests run it on the server anyway.
      "server-only": path.resolve(import.meta.dirname, "testing/server-only.ts"),
      "next/cache": path.resolve(import.meta.dirname, "testing/next-cache.ts"),
    },
  },
  test: {
    include: ["**/*.test.ts"],
    exclude: ["node_modules/**", ".next/**", "e2e/**", ".data/**"],
    // No test may fail because the machine is slow or busy: property tests are bounded by their
    // cases, and these limits only stop a test that hangs (a busy 2-core machine took 83 s for one
    // property test that takes 8 s alone).
    testTimeout: 900_000,
    // The databases every file starts from, built once per run (testing/databases.ts copies them).
    globalSetup: ["testing/global-setup.ts"],
    // Passwords hashed at bcrypt's lowest cost in tests (testing/quick-bcrypt.ts says why).
    setupFiles: ["testing/quick-bcrypt.ts"],
    hookTimeout: 900_000,
    // Each integration file opens its own databases; PGlite is CPU-bound, two at a time suit 2 cores.
    maxWorkers: 2,
    // Worker threads, not processes: each file still gets a fresh module graph (isolation), and a
    // file started 2-5 s sooner on a 2-core machine (the whole run 677 s with processes, 513 s with
    // threads and quick-bcrypt.ts). Not `isolate: false`: faster (434 s), but 5 tests failed, one
    // file's module mocks reaching another file's modules. (The module-level caches are not in the
    // way: a count's bound and the overview's figures are kept per database location.)
    pool: "threads",
    // Every test writes audit rows signed with this fixed key (docs/operating.md: "Audit log: keys, anchor and verification"), never with a key
    // file generated in the developer's .data; tests of the keys themselves set their own.
    env: {
      AUDIT_KEYS: "1:test-audit-key-not-secret-0123456789abcdef",
      // Seals second factors' keys (lib/auth/second-factor.ts), as the running console's secret does.
      NEXTAUTH_SECRET: "test-nextauth-secret-not-secret-0123456789abcdef",
    },
  },
});
