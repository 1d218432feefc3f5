import { describe, expect, it } from "vitest";
import { keyRefusal, parseSecondFactorCode, type SecondFactorAsk, secondFactorCode } from "./second-factor-code";

describe("the sign-in form's second-factor codes", () => {
  it("say which factors the person has, and carry a security key's challenge", () => {
    const challenge = "A".repeat(60);
    const asks: SecondFactorAsk[] = [
      { state: "required", totp: true, keyChallenge: null, keyIds: [] },
      { state: "wrong", totp: true, keyChallenge: null, keyIds: [] },
      { state: "required", totp: false, keyChallenge: challenge, keyIds: ["B".repeat(43), "C_-".repeat(20)] },
      { state: "wrong", totp: true, keyChallenge: challenge, keyIds: ["B".repeat(43), "C_-".repeat(20)] },
    ];
    for (const ask of asks) expect(parseSecondFactorCode(secondFactorCode(ask))).toEqual(ask);
    // The app only: the codes older forms know.
    expect(secondFactorCode(asks[0])).toBe("SecondFactorRequired");
    expect(secondFactorCode(asks[3])).toBe(`SecondFactorWrong:both:${challenge}:${"B".repeat(43)}.${"C_-".repeat(20)}`);
  });

  it("know nothing of other codes or damaged ones", () => {
    for (const code of [
      "",
      "CredentialsSignin",
      "Throttled:address:30",
      "SecondFactorRequired:key:",
      "SecondFactorWrong:app:AAAAAAAAAAAAAAAAAAAAAAAA",
      "SecondFactorRequired:key:<script>",
    ])
      expect(parseSecondFactorCode(code), code).toBeNull();
  });
});

describe("a browser's refusal of a security key", () => {
  it("is this page being the wrong place for the keys, or anything else", () => {
    expect(keyRefusal(Object.assign(new Error("x"), { name: "SecurityError" }))).toBe("keyWrongSite");
    expect(keyRefusal({ name: "WebAuthnError", code: "ERROR_INVALID_DOMAIN" })).toBe("keyWrongSite");
    expect(keyRefusal({ name: "NotAllowedError" })).toBe("keyCancelled");
    expect(keyRefusal(undefined)).toBe("keyCancelled");
  });
});
