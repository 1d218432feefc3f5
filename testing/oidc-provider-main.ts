// `node --import tsx testing/oidc-provider-main.ts '<OidcProviderInfo as JSON>'`: the test
// OpenID provider as a process of its own (spawnOidcProvider).
import { type OidcProviderInfo, startOidcProvider } from "./oidc-provider";

const info = JSON.parse(process.argv[2] ?? "{}") as OidcProviderInfo;
const provider = await startOidcProvider(info);
for (const signal of ["SIGTERM", "SIGINT"] as const) process.once(signal, () => void provider.stop().then(() => process.exit(0)));
