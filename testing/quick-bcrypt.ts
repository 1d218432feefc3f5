// vitest's setupFiles: every test hashes passwords at bcrypt's lowest cost (4), not the console's 12.
// A check reads the cost from the hash it checks, so nothing else changes: a cost-12 hash took
// 325 ms to write and as long to check on a 2-core CI machine, and the suite wrote and checked
// hundreds (lib/auth/sign-in.test.ts alone: 48 s). lib/auth/passwords.test.ts unmocks bcrypt and
// checks that the console itself writes cost 12.
import { vi } from "vitest";

vi.mock("bcrypt", async (importOriginal) => {
  const bcrypt = (await importOriginal<{ default: typeof import("bcrypt") }>()).default;
  const hash = (data: string | Buffer, _cost: string | number) => bcrypt.hash(data, 4);
  return { default: { ...bcrypt, hash } };
});
