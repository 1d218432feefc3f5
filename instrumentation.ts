export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { readConfig } = await import("./lib/config");
  const { exitOnStartupError } = await import("./lib/db/errors");
  try {
    (await import("./lib/connections")).tuneHttpServers();
    if (readConfig().logFormat === "json") (await import("./lib/log")).installJsonLogs();
  } catch (error) {
    exitOnStartupError(error);
  }
  const { startConsole } = await import("./lib/db/startup");
  await startConsole();
}
