// `npm run bench:load -- --domains N [--users 20] [--seconds 120] [--think 1-3]` against the
// PostgreSQL in DATABASE_URL (loaded with the demo generator when empty): starts the production
// build (`npm run build` first), signs in N simulated support users, each of whom opens pages of the
// mix below one after another with a pause ("think time") between them, and records the time to the
// whole HTML per page kind and the peak resident memory of the console process (sampled from /proc).
// Figures go into bench/RESULTS.md.
import { randomBytes } from "node:crypto";
import os from "node:os";
import path from "node:path";
import { signInWithPassword } from "../lib/auth/sign-in";
import { dashboard } from "../lib/dashboard";
import { exitOnStartupError, StartupError } from "../lib/db/errors";
import { objectDetail } from "../lib/objects/detail";
import { listObjects } from "../lib/objects/list";
import { listRequests } from "../lib/requests/read";
import { insertUser } from "../lib/users/store";
import { actAs, signedInAs } from "../testing/sessions";
import {
  BASE,
  endedBlockInstant,
  instantAhead,
  machineLine,
  ms,
  openBenchRegistry,
  percentile,
  richDomain,
  signInOverHttp,
  startServer,
  treeRss,
  writeResults,
} from "./bench-registry";

const MiB = 2 ** 20;
/** The console process's resident memory under the run's load (issue 19). */
const MEMORY_TARGET_MIB = 300;
/** The shortest run whose memory trend is judged. */
const TREND_SECONDS = 300;

function positive(name: string, value: string | undefined, fallback: number): number {
  const n = Number(value ?? fallback);
  if (!Number.isFinite(n) || n <= 0) throw new StartupError(`--${name} must be a positive number, not “${value}”`);
  return n;
}

interface PageKind {
  label: string;
  weight: number;
  /** The page's target p95 in ms, from the list and detail issues. */
  target: number;
  url: () => string;
  /** The page's own data access (what its server component calls), for the single-user comparison. */
  data: (url: string) => Promise<unknown>;
}

/** A page URL's query as the page's searchParams. */
const query = (url: string) => Object.fromEntries(new URL(url, "http://x").searchParams);
const objectId = (url: string) => Number(/\/objects\/(\d+)/.exec(url)?.[1]);

try {
  const { db, domains, options } = await openBenchRegistry("bench:load", 1_500_000, new Date(), ["users", "seconds", "think", "soak"]);
  // `--soak yes` (npm run test:soak): a long run that fails on any error, a memory growth trend,
  // memory over the target or a page over its p95 target.
  const soak = options.soak === "yes";
  const users = Math.round(positive("users", options.users, 20));
  const seconds = positive("seconds", options.seconds, 120);
  const [thinkMin, thinkMax] = (options.think ?? "1-3").split("-").map(Number);
  if (!(thinkMin >= 0 && thinkMax >= thinkMin))
    throw new StartupError(`--think must be a range of seconds such as 1-3, not “${options.think}”`);

  try {
    // What the simulated users look at: a sample of live domains, the domain with the richest
    // history (richDomain, the one bench:detail opens), and words that names contain.
    const sample = (
      await db.sql.query<{ id: number }>(
        "SELECT o.id FROM object_registry o TABLESAMPLE SYSTEM (1) WHERE o.type = 3 AND o.erdate IS NULL LIMIT 2000",
      )
    ).map((r) => r.id);
    const { id: rich, rows: richRows } = await richDomain(db);
    const words = ["odin", "pek", "auto", "praha", "stav", "kniha", "zahrada", "sport"];
    // An instant inside a block that has ended, for "had serverBlocked at T"; instants ahead for the forecast.
    const blockedAt = await endedBlockInstant(db.sql);
    const ahead = (days: number) => encodeURIComponent(instantAhead(days));
    const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)];
    const [{ objects, history, requests }] = await db.sql.query<{ objects: number; history: number; requests: number }>(
      `SELECT (SELECT count(*)::int FROM object_registry) AS objects, (SELECT count(*)::int FROM object_state) AS history,
              (SELECT count(*)::int FROM object_state_request) AS requests`,
    );

    const password = randomBytes(12).toString("base64url");
    const names = Array.from({ length: users }, (_, i) => `bench-load-${Date.now()}-${i + 1}`);
    // Accounts of their own for the sign-ins measured beside the run, apart from the browsing users' sessions.
    const signInNames = Array.from({ length: 5 }, (_, i) => `bench-load-${Date.now()}-sign-in-${i + 1}`);
    for (const username of [...names, ...signInNames]) await insertUser(db.sql, { username, role: "support", password });

    const serverLog = path.join(os.tmpdir(), `bench-load-server-${process.pid}.log`);
    const server = await startServer(process.env.DATABASE_URL as string, serverLog);
    const pid = server.pid as number;
    try {
      // The overview as the first person after the start meets it (issue 41: its counts are taken in
      // the background from the start, so no request waits for them), before anything else.
      const overviewStart = performance.now();
      const firstCookie = await signInOverHttp(names[0], password);
      const signInFirstMs = performance.now() - overviewStart;
      await fetch(`${BASE}/`, { headers: { cookie: firstCookie } }).then((r) => r.text());
      const overviewFirstMs = performance.now() - overviewStart;
      // And again, as the same person's next look: the server's first requests load its code.
      const againStart = performance.now();
      await fetch(`${BASE}/`, { headers: { cookie: firstCookie } }).then((r) => r.text());
      const overviewAgainMs = performance.now() - againStart;
      const cookies = [firstCookie, ...(await Promise.all(names.slice(1).map((username) => signInOverHttp(username, password))))];
      // A real "Next" link: the second page of the outzone domains, as the first page offers it.
      const first = await (await fetch(`${BASE}/objects?type=domain&states=outzone`, { headers: { cookie: cookies[0] } })).text();
      const next = /href="(\/objects\?[^"]*after=[^"]*)"/.exec(first)?.[1]?.replaceAll("&amp;", "&");
      if (!next) throw new Error("the outzone list offered no next page");

      const list = (url: string) => listObjects(query(url));
      const detail = (url: string) => objectDetail(objectId(url));
      const requestList = (url: string) => listRequests(query(url));
      const kinds: PageKind[] = [
        { label: "object list, no filter", weight: 3, target: 100, url: () => "/objects", data: list },
        { label: "object list, outzone domains", weight: 3, target: 100, url: () => "/objects?type=domain&states=outzone", data: list },
        { label: "object list, next page", weight: 2, target: 100, url: () => next, data: list },
        { label: "object list, name contains", weight: 2, target: 100, url: () => `/objects?q=${pick(words)}&match=contains`, data: list },
        { label: "object list, domains by expiration", weight: 1, target: 100, url: () => "/objects?type=domain&sort=expires", data: list },
        { label: "object page, a typical domain", weight: 5, target: 300, url: () => `/objects/${pick(sample)}`, data: detail },
        { label: `object page, ${richRows} history rows`, weight: 1, target: 300, url: () => `/objects/${rich}`, data: detail },
        { label: "requests, upcoming 7 days", weight: 1, target: 100, url: () => "/requests?upcoming=1", data: requestList },
        { label: "requests, all", weight: 1, target: 100, url: () => "/requests", data: requestList },
        // Its counts are kept and refreshed in the background each minute: the run's 120 s include such refreshes.
        { label: "overview", weight: 2, target: 100, url: () => "/", data: () => dashboard() },
        // A list that says when (issue 41, item 5): the states then, and when each block began and ended.
        {
          label: "object list, had serverBlocked at T",
          weight: 1,
          target: 100,
          url: () => `/objects?states=serverBlocked&mode=at&at=${encodeURIComponent(blockedAt)}`,
          data: list,
        },
        // The forecast lists (issue 41): from the stored plan of the periods ahead (console.state_plan).
        {
          label: "object list, entering outzone in the coming week",
          weight: 1,
          target: 100,
          url: () => `/objects?type=domain&states=outzone&mode=entered&from=${ahead(0)}&to=${ahead(7)}`,
          data: list,
        },
        {
          label: "object list, deleteCandidate in 30 days",
          weight: 1,
          target: 100,
          url: () => `/objects?states=deleteCandidate&mode=at&at=${ahead(30)}`,
          data: list,
        },
      ];
      const totalWeight = kinds.reduce((sum, k) => sum + k.weight, 0);
      const choose = () => {
        let r = Math.random() * totalWeight;
        for (const kind of kinds) {
          r -= kind.weight;
          if (r < 0) return kind;
        }
        return kinds[0];
      };

      // Warm-up: every page kind and its data access a few times, so the figures are of a running
      // console (and a warmed-up comparison in this process), not of their first calls.
      const support = await signedInAs(db, "support", `bench-load-data-${Date.now()}`);
      for (let round = 0; round < 3; round++)
        for (const kind of kinds) {
          const url = kind.url();
          await fetch(`${BASE}${url}`, { headers: { cookie: cookies[0] } }).then((r) => r.text());
          await actAs(support, () => kind.data(url));
        }
      const idleRss = treeRss(pid);

      // One person alone: each page kind's whole HTML next to its own data access, same URLs.
      // 40 of each: the p50 of 15 moved by ±2 ms between runs on a 2-core machine.
      const SINGLE_PAGES = 40;
      const single: { label: string; page: number; data: number }[] = [];
      for (const kind of kinds) {
        const pages: number[] = [];
        const data: number[] = [];
        for (let i = 0; i < SINGLE_PAGES; i++) {
          const url = kind.url();
          let started = performance.now();
          await fetch(`${BASE}${url}`, { headers: { cookie: cookies[0] } }).then((r) => r.text());
          pages.push(performance.now() - started);
          started = performance.now();
          await actAs(support, () => kind.data(url));
          data.push(performance.now() - started);
        }
        single.push({ label: kind.label, page: percentile(pages, 50), data: percentile(data, 50) });
      }

      // Signing in as a person does (issue 41: "not slower than any other page"): the form's token,
      // the password checked (bcrypt, cost 12), a session opened, and the overview it lands on.
      const signInPage = async () => {
        const cookie = await signInOverHttp(pick(signInNames), password);
        await fetch(`${BASE}/`, { headers: { cookie } }).then((r) => r.text());
      };
      const SINGLE_SIGN_INS = 10;
      const signInAlone: number[] = [];
      const signInCheck: number[] = [];
      for (let i = 0; i < SINGLE_SIGN_INS; i++) {
        let started = performance.now();
        await signInPage();
        signInAlone.push(performance.now() - started);
        started = performance.now();
        await signInWithPassword(db.sql, pick(signInNames), password, { clientAddress: null, userAgent: "bench:load" });
        signInCheck.push(performance.now() - started);
      }

      const times = new Map<string, number[]>(kinds.map((k) => [k.label, []]));
      const failures: string[] = [];
      let peakRss = idleRss;
      const rssSamples: number[] = [];
      const sampleTimes: number[] = [];
      const runStarted = Date.now();
      const sampler = setInterval(() => {
        const rss = treeRss(pid);
        rssSamples.push(rss);
        sampleTimes.push((Date.now() - runStarted) / 60_000);
        peakRss = Math.max(peakRss, rss);
      }, 250);
      const deadline = Date.now() + seconds * 1000;
      console.log(`${users} users for ${seconds} s, ${thinkMin}–${thinkMax} s between pages…`);
      const sleep = (s: number) => new Promise((resolve) => setTimeout(resolve, s * 1000));
      // Someone signs in every SIGN_IN_EVERY_S seconds while the users browse (as people do: now and
      // then, not one page in 25), measured apart from the pages.
      const SIGN_IN_EVERY_S = 5;
      const signIns: number[] = [];
      const signingIn = (async () => {
        while (Date.now() + SIGN_IN_EVERY_S * 1000 < deadline) {
          await sleep(SIGN_IN_EVERY_S);
          const started = performance.now();
          try {
            await signInPage();
            signIns.push(performance.now() - started);
          } catch (error) {
            failures.push(`${(error as Error).message} (sign-in)`);
          }
        }
      })();
      await Promise.all([
        signingIn,
        ...cookies.map(async (cookie, user) => {
          await sleep(Math.random() * thinkMax); // users do not all start at the same instant
          while (Date.now() < deadline) {
            const kind = choose();
            const url = kind.url();
            const started = performance.now();
            try {
              const response = await fetch(`${BASE}${url}`, { headers: { cookie } });
              const body = await response.text();
              const elapsed = performance.now() - started;
              if (response.status !== 200 || /class="error-page"|data-dgst=/.test(body))
                failures.push(`${response.status} ${url} (user ${user + 1})`);
              else times.get(kind.label)?.push(elapsed);
            } catch (error) {
              failures.push(`${(error as Error).message} ${url} (user ${user + 1})`);
            }
            await sleep(thinkMin + Math.random() * (thinkMax - thinkMin));
          }
        }),
      ]);
      clearInterval(sampler);
      const all = [...times.values()].flat();
      const endRss = treeRss(pid);

      // Saturation: the same users with no pause between pages, for a third of the run.
      const saturationSeconds = Math.max(10, Math.round(seconds / 3));
      const saturated: number[] = [];
      let saturatedFailures = 0;
      const saturationEnd = Date.now() + saturationSeconds * 1000;
      await Promise.all(
        cookies.map(async (cookie) => {
          while (Date.now() < saturationEnd) {
            const started = performance.now();
            try {
              const response = await fetch(`${BASE}${choose().url()}`, { headers: { cookie } });
              await response.text();
              if (response.status === 200) saturated.push(performance.now() - started);
              else saturatedFailures++;
            } catch {
              saturatedFailures++;
            }
          }
        }),
      );
      const saturatedPeak = treeRss(pid);

      const pgVersion = (await db.sql.query<{ v: string }>("SELECT current_setting('server_version') AS v"))[0].v;
      const lines: string[] = [];
      const say = (line: string) => {
        console.log(line);
        lines.push(line);
      };
      const heading = soak ? "## Soak" : "## HTTP load";
      say(
        soak
          ? `${heading} (\`npm run test:soak\`: ${seconds / 60} minutes), ${new Date().toISOString().slice(0, 16)}Z`
          : `${heading} (\`npm run bench:load -- --domains ${domains}\`), ${new Date().toISOString().slice(0, 16)}Z`,
      );
      say("");
      say(machineLine(pgVersion));
      say(
        `Data: ${objects.toLocaleString("en")} objects (${domains.toLocaleString("en")} domains), ${history.toLocaleString("en")} state history rows, ${requests.toLocaleString("en")} requests.`,
      );
      say(
        `${users} simulated support users, each signed in with a session of their own, for ${seconds} s against the production build (\`next start\`, one process): ` +
          `each opens a page of the mix below, reads the whole HTML, waits ${thinkMin}–${thinkMax} s and opens the next. ` +
          `${all.length.toLocaleString("en")} pages (${(all.length / seconds).toFixed(1)} per second), ${failures.length} failed. Times in ms to the whole HTML.`,
      );
      say(
        `The overview for the first person after the server started (sign-in and the page, the counts of ${objects.toLocaleString("en")} objects being taken in the background meanwhile): ${ms(overviewFirstMs)} ms (sign-in ${ms(signInFirstMs)}, the page ${ms(overviewFirstMs - signInFirstMs)}); the page again at once: ${ms(overviewAgainMs)} ms.`,
      );
      say(
        `Signing in while the users browse (one every ${SIGN_IN_EVERY_S} s: the form's token, the password check, the overview it lands on): ${signIns.length} sign-ins, ` +
          `p50 ${ms(percentile(signIns, 50))} ms, p95 ${ms(percentile(signIns, 95))} ms, max ${ms(Math.max(...signIns))} ms. ` +
          `Alone (before the run, ${SINGLE_SIGN_INS} of them): ${ms(percentile(signInAlone, 50))} ms p50, of which the sign-in's own work ${ms(percentile(signInCheck, 50))} ms (bcrypt at cost 12 nearly all of it).`,
      );
      say("");
      say("| page | share | requests | p50 | p95 | max | target p95 | met |");
      say("|---|---|---|---|---|---|---|---|");
      for (const kind of kinds) {
        const t = times.get(kind.label) ?? [];
        if (t.length === 0) {
          say(`| ${kind.label} | ${((kind.weight / totalWeight) * 100).toFixed(0)}% | 0 | | | | ${kind.target} | |`);
          continue;
        }
        const p95 = percentile(t, 95);
        say(
          `| ${kind.label} | ${((kind.weight / totalWeight) * 100).toFixed(0)}% | ${t.length} | ${ms(percentile(t, 50))} | ${ms(p95)} | ${ms(Math.max(...t))} | ${kind.target} | ${p95 <= kind.target ? "yes" : "**no**"} |`,
        );
      }
      say(`| all pages | 100% | ${all.length} | ${ms(percentile(all, 50))} | ${ms(percentile(all, 95))} | ${ms(Math.max(...all))} | | |`);
      say("");
      say(
        `One user alone (before the run), ${SINGLE_PAGES} pages of each kind: the whole HTML next to the page's own data access (p50, ms).`,
      );
      say("");
      say("| page | whole page | data access | rendering and the rest |");
      say("|---|---|---|---|");
      for (const row of single) say(`| ${row.label} | ${ms(row.page)} | ${ms(row.data)} | ${ms(row.page - row.data)} |`);
      say("");
      say(
        `Saturation (after the run): the ${users} users with no pause for ${saturationSeconds} s: ${(saturated.length / saturationSeconds).toFixed(1)} pages per second, ` +
          `p50 ${ms(percentile(saturated, 50))} ms, p95 ${ms(percentile(saturated, 95))} ms, ${saturatedFailures} failed; memory ${(saturatedPeak / MiB).toFixed(0)} MiB at its end.`,
      );
      say("");
      const half = Math.floor(rssSamples.length / 2);
      const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / Math.max(1, v.length);
      say(
        `Console process memory (resident, the \`next start\` process and its children): ${(idleRss / MiB).toFixed(0)} MiB after warm-up, ` +
          `peak ${(peakRss / MiB).toFixed(0)} MiB, ${(endRss / MiB).toFixed(0)} MiB at the end; mean ${(mean(rssSamples.slice(0, half)) / MiB).toFixed(0)} MiB in the first half of the run, ` +
          `${(mean(rssSamples.slice(half)) / MiB).toFixed(0)} MiB in the second. Target: under ${MEMORY_TARGET_MIB} MiB — ${peakRss < MEMORY_TARGET_MIB * MiB ? "met" : "**not met**"}.`,
      );
      // Memory trend: the least-squares slope of resident memory over the second half of the run,
      // after the heap has grown to its working size.
      const xs = sampleTimes.slice(half);
      const ys = rssSamples.slice(half).map((b) => b / MiB);
      const mx = mean(xs);
      const my = mean(ys);
      const slope =
        xs.reduce((sum, x, i) => sum + (x - mx) * (ys[i] - my), 0) /
        Math.max(
          1e-9,
          xs.reduce((sum, x) => sum + (x - mx) ** 2, 0),
        );
      const growing = slope > 2;
      // Over a minute or two the slope mostly shows V8 sizing its heap: the 120 s runs measured
      // between -36 and +8 MiB per minute while 10-minute soaks stayed flat. Only a run of five
      // minutes or more (the soak) judges it.
      const judged = seconds >= TREND_SECONDS;
      say(
        `Memory trend over the second half: ${slope >= 0 ? "+" : ""}${slope.toFixed(2)} MiB per minute (limit +2) — ${
          judged
            ? growing
              ? "**growing**"
              : "stable"
            : `not judged: a run under ${TREND_SECONDS / 60} minutes is too short to tell growth from the heap settling (\`npm run test:soak\` judges it)`
        }.`,
      );
      if (failures.length > 0) {
        say("");
        say(`Failures (first 10): ${failures.slice(0, 10).join("; ")}`);
      }
      const slow = kinds.filter((k) => (times.get(k.label)?.length ?? 0) > 0 && percentile(times.get(k.label) ?? [], 95) > k.target);
      if (soak) {
        const verdicts = [
          failures.length === 0 ? "no errors" : `**${failures.length} errors**`,
          growing ? "**memory grows**" : "memory stable",
          peakRss < MEMORY_TARGET_MIB * MiB ? `memory under ${MEMORY_TARGET_MIB} MiB` : `**memory over ${MEMORY_TARGET_MIB} MiB**`,
          slow.length === 0
            ? "every page within its p95 target"
            : `**${slow.length} page kind(s) over their p95 target**: ${slow.map((k) => k.label).join(", ")}`,
        ];
        say("");
        say(`Verdict: ${verdicts.join("; ")}.`);
        if (failures.length > 0 || growing || peakRss >= MEMORY_TARGET_MIB * MiB || slow.length > 0) process.exitCode = 1;
      } else if (failures.length > 0) process.exitCode = 1;
      writeResults(heading, lines);
    } finally {
      server.kill();
    }
  } finally {
    await db.close();
  }
} catch (error) {
  exitOnStartupError(error, "bench:load failed");
}
