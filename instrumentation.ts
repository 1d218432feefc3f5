export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startConsole } = await import("./lib/db/startup");
  await startConsole();
}
