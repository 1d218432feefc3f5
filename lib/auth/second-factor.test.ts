import { createHash } from "node:crypto";
import { Secret, TOTP } from "otpauth";
import { beforeAll, describe, expect, it } from "vitest";
import { acceptedStep, enrolmentOf, newRecoveryCodes, newSecret, openSecret, recoveryIndex, sealSecret } from "./second-factor";

// RFC 6238 appendix B: the SHA-1 secret "12345678901234567890" (in base32) and its codes.
const RFC_SECRET = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";

describe("two-step sign-in: TOTP codes, sealed secrets, recovery codes", () => {
  beforeAll(() => {});

  it("accepts RFC 6238's codes in their 30-second step, the step before and after, and never the same step twice", () => {
    // T = 59 s: 94287082 in 8 digits, so 287082 in the 6 digits an app shows; step 1.
    expect(acceptedStep(RFC_SECRET, "287082", null, 59_000)).toBe(1);
    // T = 1111111109 s: 07081804 → 081804, step 37037036.
    expect(acceptedStep(RFC_SECRET, "081804", null, 1_111_111_109_000)).toBe(37_037_036);
    // A clock 30 s off either way still signs in; 90 s off does not.
    expect(acceptedStep(RFC_SECRET, "081804", null, 1_111_111_109_000 + 30_000)).toBe(37_037_036);
    expect(acceptedStep(RFC_SECRET, "081804", null, 1_111_111_109_000 + 90_000)).toBeNull();
    // Used once: the same code (or an older one) is refused.
    expect(acceptedStep(RFC_SECRET, "081804", 37_037_036, 1_111_111_109_000)).toBeNull();
    for (const bad of ["", "08180", "0818040", "abcdef", "081 804"])
      expect(acceptedStep(RFC_SECRET, bad, null, 1_111_111_109_000)).toBeNull();
  });

  it("keeps a secret sealed (AES-GCM): it opens again, and a changed one does not", () => {
    const secret = newSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const sealed = sealSecret(secret);
    expect(sealed).not.toContain(secret);
    expect(openSecret(sealed)).toBe(secret);
    const [v, iv, tag, data] = sealed.split(".");
    // Flip one bit of the ciphertext itself (changing base64 padding characters may decode to the same bytes).
    const bytes = Buffer.from(data, "base64");
    bytes[0] ^= 1;
    const flipped = bytes.toString("base64");
    expect(() => openSecret([v, iv, tag, flipped].join("."))).toThrow();
  });

  it("gives an app the otpauth:// URI and its QR code, whose codes the console accepts", () => {
    const secret = newSecret();
    const { uri, qrSvg } = enrolmentOf(secret, "ada");
    expect(uri).toMatch(
      /^otpauth:\/\/totp\/Registry%20State%20Console:ada\?issuer=Registry%20State%20Console&secret=[A-Z2-7]+&algorithm=SHA1&digits=6&period=30$/,
    );
    expect(qrSvg).toMatch(/^<svg/);
    const code = TOTP.generate({ secret: Secret.fromBase32(secret) });
    expect(acceptedStep(secret, code, null)).not.toBeNull();
  });

  it("makes ten different recovery codes, keeps only their hashes, and finds a typed one however it is spaced", () => {
    const { codes, hashes } = newRecoveryCodes();
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[0-9a-f]{5}-[0-9a-f]{5}$/);
    expect(hashes.join("")).not.toContain(codes[0].replace("-", ""));
    expect(recoveryIndex(hashes, codes[3])).toBe(3);
    expect(recoveryIndex(hashes, ` ${codes[3].replace("-", "").toUpperCase()} `)).toBe(3);
    expect(recoveryIndex(hashes, "00000-00000")).toBe(-1);
  });

  it("keeps a recovery code as an HMAC under a key the database never holds: its plain SHA-256 is not kept, and another secret finds nothing", () => {
    const { codes, hashes } = newRecoveryCodes();
    const plain = createHash("sha256").update(codes[0].replace("-", "")).digest("hex");
    // A stolen hash cannot be matched by hashing the 2^40 possible codes (ASVS 4.0 V2.6.2, V2.6.3).
    expect(hashes).not.toContain(plain);
    expect(hashes[0]).toMatch(/^h1:[0-9a-f]{64}$/);
    const secret = process.env.NEXTAUTH_SECRET;
    try {
      process.env.NEXTAUTH_SECRET = "another-secret-another-secret-another-secret-0123";
      expect(recoveryIndex(hashes, codes[0])).toBe(-1);
    } finally {
      process.env.NEXTAUTH_SECRET = secret;
    }
    expect(recoveryIndex(hashes, codes[0])).toBe(0);
    // Codes made before are still accepted, once, from their plain SHA-256.
    expect(recoveryIndex(["a".repeat(64), plain], codes[0])).toBe(1);
  });
});
