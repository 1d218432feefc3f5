import { describe, expect, it } from "vitest";
import { StartupError } from "../db/errors";
import { readOidcRoles, roleFromClaims, usernameFromClaims } from "./oidc";

describe("roles from an identity provider's claims", () => {
  const roles = readOidcRoles({ OIDC_ROLE_CLAIM: "groups", OIDC_ADMIN_VALUE: "console-admins", OIDC_SUPPORT_VALUE: "console-support" });

  it("reads the claim and the values that give roles, and refuses a claim without values", () => {
    expect(readOidcRoles({})).toBeNull();
    expect(roles).toEqual({
      claim: "groups",
      values: [
        { role: "admin", value: "console-admins" },
        { role: "support", value: "console-support" },
      ],
    });
    expect(() => readOidcRoles({ OIDC_ROLE_CLAIM: "groups" })).toThrow(StartupError);
    expect(() => readOidcRoles({ OIDC_ROLE_CLAIM: "groups" })).toThrow(/at least one of OIDC_ADMIN_VALUE/);
    expect(() => readOidcRoles({ OIDC_ROLE_CLAIM: "bad claim!", OIDC_ADMIN_VALUE: "x" })).toThrow(/must be a claim's name/);
  });

  it("gives the highest role a list or a single value holds, and none for other values or types", () => {
    if (!roles) throw new Error("no roles");
    expect(roleFromClaims(roles, { groups: ["staff", "console-support", "console-admins"] })).toBe("admin");
    expect(roleFromClaims(roles, { groups: "console-support" })).toBe("support");
    expect(roleFromClaims(roles, { groups: ["staff"] })).toBeNull();
    expect(roleFromClaims(roles, { groups: [{ name: "console-admins" }] })).toBeNull();
    expect(roleFromClaims(roles, {})).toBeNull();
  });

  it("takes the user name from preferred_username, e-mail or subject, only when a console user may have it", () => {
    expect(usernameFromClaims({ preferred_username: "Olga", sub: "1" })).toBe("olga");
    expect(usernameFromClaims({ email: "olga@registry.cz", sub: "1" })).toBe("olga@registry.cz");
    expect(usernameFromClaims({ preferred_username: "olga novak", sub: "1" })).toBeNull();
    expect(usernameFromClaims({ preferred_username: "x".repeat(80) })).toBeNull();
  });
});
