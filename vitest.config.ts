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
    // Processes, not worker threads: each file gets a fresh process (isolation). Threads were faster
    // (the whole run 460 s against 537 s on 2026-12-03, this 2-core machine), but on Node 24 two
    // clean-clone runs of three lost the runner itself: abseil's "Mutex corrupt" abort in one, a
    // silent death in the other, both in the one process the worker isolates share. Others report
    // the like (vitest#11291: threads-pool isolates crashing in V8 on Node 24, the same files passing
    // in forks). A fork that crashes is reported as an error and the rest of the run goes on.
    // Not `isolate: false`: faster, but 5 tests failed, one file's module mocks reaching another
    // file's modules. (The module-level caches are not in the way: a count's bound and the
    // overview's figures are kept per database location.)
    pool: "forks",
    // Every test writes audit rows signed with this fixed key (docs/operating.md: "Audit log: keys, anchor and verification"), never with a key
    // file generated in the developer's .data; tests of the keys themselves set their own.
    env: {
      AUDIT_KEYS: "1:test-audit-key-not-secret-0123456789abcdef",
      // Seals second factors' keys (lib/auth/second-factor.ts), as the running console's secret does.
      NEXTAUTH_SECRET: "test-nextauth-secret-not-secret-0123456789abcdef",
    },
  },
});
