import { spawn } from "node:child_process";
import { readConfig } from "../../lib/config";
import { openDatabase } from "../../lib/db/client";
import { insertUser } from "../../lib/users/store";
import { BASE, PORT, signInOverHttp } from "../bench-registry";

const db = await openDatabase(readConfig());
const username = `prof-${Date.now()}`;
await insertUser(db.sql, { username, role: "support", password: "prof password 12345" });
await db.close();
const server = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "-p", String(PORT), "-H", "127.0.0.1"], {
  stdio: "ignore",
  env: {
    ...process.env,
    ...(process.env.PROF ? { NODE_OPTIONS: "--cpu-prof --cpu-prof-dir=/tmp/prof" } : {}),
    NEXTAUTH_URL: BASE,
    NEXTAUTH_SECRET: "y".repeat(44),
  },
});
for (let i = 0; i < 120; i++) {
  if ((await fetch(`${BASE}/login`).catch(() => null))?.ok) break;
  await new Promise((r) => setTimeout(r, 500));
}
const cookie = await signInOverHttp(username, "prof password 12345");
const urls = (process.env.URLS ?? "/objects").split(",");
for (const url of urls) {
  const t: number[] = [];
  for (let i = 0; i < Number(process.env.N ?? 50); i++) {
    const s = performance.now();
    const r = await fetch(`${BASE}${url}`, { headers: { cookie } });
    const body = await r.text();
    (await import("node:fs")).writeFileSync("/tmp/page.html", body);
    t.push(performance.now() - s);
  }
  t.sort((a, b) => a - b);
  console.log(url, "p50", t[Math.floor(t.length / 2)].toFixed(1), "min", t[0].toFixed(1));
}
server.kill("SIGINT");
await new Promise((r) => setTimeout(r, 3000));
