// The console as the end-to-end suite sees it: the production build on a fresh embedded database,
// which the server migrates and fills with the default demo registry as `npm start` does.
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { freePort } from "../testing/free-port";
import { killOidcProvider, type OidcProviderInfo, oidcEnv, spawnOidcProvider, writeOidcAccounts } from "../testing/oidc-provider";
import { startSlapd } from "../testing/slapd";
import { startSmtp } from "../testing/smtp";
import {
  E2E_ADMIN_PASSWORD,
  E2E_DIRECTORY,
  E2E_MAILS,
  E2E_METRICS_TOKEN,
  E2E_OIDC_INFO,
  E2E_SERVER_LOG,
  E2E_SLAPD_INFO,
  E2E_SSO_PEOPLE,
  e2eFile,
} from "./helpers";
import { serveBuild } from "./serve";

const dataDir = path.resolve(e2eFile("pglite"));
if (!existsSync(path.join(".next", "BUILD_ID"))) {
  console.error("No production build to test: run `npm run build` first (npm test does).");
  process.exit(1);
}
rmSync(dataDir, { recursive: true, force: true });
rmSync(`${dataDir}.lock`, { force: true });
// The audit log's anchor goes with the database it anchors: a new database each run, a new anchor
// (one left from an earlier run made the server report that run's rows as removed).
const anchorFile = `${dataDir}.audit-anchor`;
rmSync(anchorFile, { force: true });
const port = process.env.E2E_PORT ?? "3100";
// The server's log goes to the terminal and to a file the log test reads.
rmSync(E2E_SERVER_LOG, { force: true });
// The registry's directory: a real OpenLDAP server with the people e2e/directory-sign-in.spec.ts
// signs in as; the specs control it through the file it is described in.
mkdirSync(".data", { recursive: true });
const slapd = await startSlapd(E2E_DIRECTORY);
writeFileSync(E2E_SLAPD_INFO, JSON.stringify(slapd.info));
// The registry's identity provider: a real OpenID provider (oidc-provider) as a process of its own,
// with the people of e2e/oidc-sign-in.spec.ts, which may rewrite their groups and stop it.
const oidc: OidcProviderInfo = {
  port: await freePort(),
  consoleUrl: `http://127.0.0.1:${port}`,
  accountsFile: path.resolve(e2eFile("oidc-accounts.json")),
  pidfile: path.resolve(e2eFile("oidc.pid")),
};
writeOidcAccounts(oidc.accountsFile, E2E_SSO_PEOPLE);
await spawnOidcProvider(oidc);
writeFileSync(E2E_OIDC_INFO, JSON.stringify(oidc));
// The registry's mail server: a real local SMTP server; the mails it receives are written to
// E2E_MAILS for the specs (e2e/cases.spec.ts reads the approver's mail).
rmSync(E2E_MAILS, { force: true });
const smtp = await startSmtp((mails) => writeFileSync(E2E_MAILS, JSON.stringify(mails)));
const server = serveBuild(
  port,
  {
    ...process.env,
    DATABASE_URL: "",
    PGLITE_DIR: dataDir,
    AUDIT_ANCHOR_FILE: anchorFile,
    // The overview takes its figures again after 5 s at least (e2e/overview.spec.ts sees them renewed).
    OVERVIEW_COUNTS_SECONDS: "5",
    METRICS_TOKEN: E2E_METRICS_TOKEN,
    SMTP_URL: smtp.url,
    SMTP_FROM: "Registry Console <console@registry.example>",
    CONSOLE_ADMIN_PASSWORD: E2E_ADMIN_PASSWORD,
    ...slapd.env,
    ...oidcEnv(oidc.port),
  },
  E2E_SERVER_LOG,
);
const stop = async (code: number) => {
  killOidcProvider(oidc);
  await smtp.close().catch(() => {});
  await slapd.remove().catch(() => {});
  process.exit(code);
};
server.on("exit", (code) => void stop(code ?? 0));
for (const signal of ["SIGTERM", "SIGINT"] as const) process.once(signal, () => server.kill(signal));
