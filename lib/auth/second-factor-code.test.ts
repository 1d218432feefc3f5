import { describe, expect, it } from "vitest";
import { parseSecondFactorCode, type SecondFactorAsk, secondFactorCode } from "./second-factor-code";

describe("the sign-in form's second-factor codes", () => {
  it("say which factors the person has, and carry a security key's challenge", () => {
    const challenge = "A".repeat(60);
    const asks: SecondFactorAsk[] = [
      { state: "required", totp: true, keyChallenge: null },
      { state: "wrong", totp: true, keyChallenge: null },
      { state: "required", totp: false, keyChallenge: challenge },
      { state: "wrong", totp: true, keyChallenge: challenge },
    ];
    for (const ask of asks) expect(parseSecondFactorCode(secondFactorCode(ask))).toEqual(ask);
    // The app only: the codes older forms know.
    expect(secondFactorCode(asks[0])).toBe("SecondFactorRequired");
    expect(secondFactorCode(asks[3])).toBe(`SecondFactorWrong:both:${challenge}`);
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
