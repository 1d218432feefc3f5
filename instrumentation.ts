export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { readConfig } = await import("./lib/config");
  const { exitOnStartupError } = await import("./lib/db/errors");
  try {
    (await import("./lib/connections")).tuneHttpServers();
    // Every request gets an id and is counted for the metrics; with JSON logs, an access line too.
    const { installJsonLogs, installRequestTracking } = await import("./lib/log");
    const { observeRequest } = await import("./lib/metrics");
    if (readConfig().logFormat === "json") installJsonLogs(undefined, undefined, observeRequest);
    else installRequestTracking({ finished: observeRequest });
  } catch (error) {
    exitOnStartupError(error);
  }
  const { startConsole } = await import("./server/start");
  await startConsole();
}
