import { readConfig } from "../../lib/config";
import { openDatabase } from "../../lib/db/client";
import { insertUser } from "../../lib/users/store";
import { BASE, signInOverHttp } from "../bench-registry";

const db = await openDatabase(readConfig());
const username = `one-${Date.now()}`;
await insertUser(db.sql, { username, role: "support", password: "prof password 12345" });
await db.close();
for (let i = 0; i < 120; i++) {
  if ((await fetch(`${BASE}/login`).catch(() => null))?.ok) break;
  await new Promise((r) => setTimeout(r, 500));
}
const cookie = await signInOverHttp(username, "prof password 12345");
const url = process.env.URL ?? "/objects";
for (let i = 0; i < 20; i++) await (await fetch(`${BASE}${url}`, { headers: { cookie } })).text();
await fetch(`${BASE}/api/health?mark`);
const s = performance.now();
const r = await fetch(`${BASE}${url}`, { headers: { cookie } });
await r.text();
console.log(url, (performance.now() - s).toFixed(1), "ms");
await fetch(`${BASE}/api/health?end`);
