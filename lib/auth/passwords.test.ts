import { describe, expect, it, vi } from "vitest";
import { hashPassword, needsRehash, verifyPassword } from "./passwords";

// The real bcrypt at the console's own cost, not the other tests' quick one (testing/quick-bcrypt.ts).
vi.unmock("bcrypt");

describe("password hashes", () => {
  it("checks a password against its own hash only, and writes the current form", async () => {
    const hash = await hashPassword("correct horse battery staple");
    expect(hash).toMatch(/^rsc2:\$2b\$12\$/);
    expect(needsRehash(hash)).toBe(false);
    expect(await verifyPassword("correct horse battery staple", hash)).toBe(true);
    expect(await verifyPassword("correct horse battery stapler", hash)).toBe(false);
    expect(await verifyPassword("correct horse battery staple", "not a hash")).toBe(false);
  });

  it("tells apart long passphrases that share their first 72 bytes", async () => {
    const head = "a".repeat(72);
    const hash = await hashPassword(`${head} one`);
    expect(await verifyPassword(`${head} one`, hash)).toBe(true);
    expect(await verifyPassword(`${head} two`, hash)).toBe(false);
  });

  it("still checks the hashes written before (bcryptjs, in both forms and both bcrypt prefixes)", async () => {
    // Written by bcryptjs 3.0.3, the console's hashing library until 2026-12-02 (cost 4 to keep the test quick).
    const current = "rsc2:$2b$04$ZNlRjuExdREopDL//DtjGOomkVCjoiRSHBSgE3s9HDWo.VE2uJnTK";
    expect(await verifyPassword("Žluťoučký kůň úpěl ďábelské ódy 2026", current)).toBe(true);
    expect(await verifyPassword("Zlutoucky kun upel dabelske ody 2026", current)).toBe(false);
    for (const legacy of [
      "$2b$04$dI5fZcbOJTh5rCNACOaEhOPhAwTT6L.1M8Xo.FBDBDs9sD3wqWnF2",
      "$2a$04$cE2Q849e2EE0EY8ZJV0Dae.YB8lpOXAX5lzhbCOr7tmoCXJF/4Y..",
    ]) {
      expect(await verifyPassword("legacy passphrase 2024", legacy)).toBe(true);
      expect(await verifyPassword("legacy passphrase 2025", legacy)).toBe(false);
      expect(needsRehash(legacy)).toBe(true);
    }
  });

  it("checks off the thread that serves pages: other work goes on during a whole check", async () => {
    const hash = await hashPassword("a passphrase for the check");
    let turns = 0;
    let checking = true;
    const spin = () => {
      turns++;
      if (checking) setImmediate(spin);
    };
    setImmediate(spin);
    const ok = await verifyPassword("a passphrase for the check", hash);
    checking = false;
    expect(ok).toBe(true);
    // A check of cost 12 takes a quarter of a second or more; on the same thread (bcryptjs) the event
    // loop got a turn only between its 100 ms slices, a handful in all.
    expect(turns).toBeGreaterThan(100);
  });
});
