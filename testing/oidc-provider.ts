import { readFileSync, writeFileSync } from "node:fs";
import type { Server } from "node:http";
import Provider from "oidc-provider";

/**
 * A real OpenID provider for the tests (the `oidc-provider` package, its development sign-in
 * pages: any password signs in as the login typed). Its people and their groups are read from
 * `accountsFile` at every sign-in, so a test (in another process) changes a person's groups by
 * rewriting the file.
 */
export interface OidcAccount {
  name: string;
  groups: string[];
}

const OIDC_CLIENT_ID = "registry-console";
const OIDC_CLIENT_SECRET = "a client secret of the console, long enough";

/** The console's settings for the test provider on `port`: roles from the `groups` claim. */
export function oidcEnv(port: number): Record<string, string> {
  return {
    OIDC_ISSUER: `http://127.0.0.1:${port}`,
    OIDC_CLIENT_ID,
    OIDC_CLIENT_SECRET,
    OIDC_NAME: "Registry SSO",
    OIDC_SCOPE: "openid profile groups",
    OIDC_ROLE_CLAIM: "groups",
    OIDC_ADMIN_VALUE: "console-admins",
    OIDC_OPERATOR_VALUE: "console-operators",
    OIDC_SUPPORT_VALUE: "console-support",
  };
}

export function writeOidcAccounts(accountsFile: string, accounts: Record<string, OidcAccount>): void {
  writeFileSync(accountsFile, JSON.stringify(accounts));
}

export async function startOidcProvider(options: {
  port: number;
  consoleUrl: string;
  accountsFile: string;
}): Promise<{ issuer: string; env: Record<string, string>; stop(): Promise<void> }> {
  const issuer = `http://127.0.0.1:${options.port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: OIDC_CLIENT_ID,
        client_secret: OIDC_CLIENT_SECRET,
        redirect_uris: [`${options.consoleUrl}/api/auth/callback/oidc`],
        post_logout_redirect_uris: [`${options.consoleUrl}/login`],
      },
    ],
    scopes: ["openid", "profile", "groups"],
    claims: { openid: ["sub"], profile: ["name", "preferred_username"], groups: ["groups"] },
    // The ID token carries the claims its scopes ask for (as Keycloak's group mapper does).
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    async findAccount(_ctx, id) {
      const accounts = JSON.parse(readFileSync(options.accountsFile, "utf8")) as Record<string, OidcAccount>;
      const account = accounts[id];
      if (!account) return undefined;
      return {
        accountId: id,
        async claims() {
          return { sub: id, preferred_username: id, name: account.name, groups: account.groups };
        },
      };
    },
  });
  // Plain HTTP on the loopback interface, for the tests only.
  provider.proxy = false;
  const server: Server = await new Promise((resolve) => {
    const s = provider.listen(options.port, "127.0.0.1", () => resolve(s));
  });
  return {
    issuer,
    env: oidcEnv(options.port),
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Where a provider run by e2e/server.ts is, for the specs (another process) to stop and start it. */
export interface OidcProviderInfo {
  port: number;
  consoleUrl: string;
  accountsFile: string;
  pidfile: string;
}

const MAIN = new URL("./oidc-provider-main.ts", import.meta.url).pathname;

/** Runs the provider as a process of its own (so that a test can take it down), and waits until it answers. */
export async function spawnOidcProvider(info: OidcProviderInfo): Promise<void> {
  const { spawn } = await import("node:child_process");
  const child = spawn(process.execPath, ["--import", "tsx", MAIN, JSON.stringify(info)], { detached: true, stdio: "ignore" });
  child.unref();
  writeFileSync(info.pidfile, String(child.pid));
  for (let attempt = 0; ; attempt++) {
    try {
      const response = await fetch(`http://127.0.0.1:${info.port}/.well-known/openid-configuration`);
      if (response.ok) return;
    } catch {}
    if (attempt > 200) throw new Error(`the OpenID provider did not start on port ${info.port}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Stops a provider spawnOidcProvider started. */
export function killOidcProvider(info: OidcProviderInfo): void {
  try {
    process.kill(Number(readFileSync(info.pidfile, "utf8")), "SIGTERM");
  } catch {}
}
