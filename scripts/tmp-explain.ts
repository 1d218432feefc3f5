import { listObjects } from "../lib/objects/list";
import { actAs, signedInAs } from "../lib/testing/sessions";
import { instantAhead, openBenchRegistry } from "./bench-registry";

const { db } = await openBenchRegistry("bench:list", 1_500_000, new Date());
const support = await signedInAs(db, "support", `x-${Date.now()}`);
const ahead = instantAhead;
const which = process.env.WHICH as string;
const params: Record<string, Record<string, string>> = {
  entered: { type: "domain", states: "outzone", mode: "entered", from: ahead(0), to: ahead(7) },
  enteredSorted: { type: "domain", states: "outzone", mode: "entered", from: ahead(0), to: ahead(7), sort: "from" },
  dc: { states: "deleteCandidate", mode: "at", at: ahead(30) },
};
for (let i = 0; i < Number(process.env.N ?? 3); i++) {
  const t = performance.now();
  const page = await actAs(support, () => listObjects(params[which]));
  console.log(which, page.rows.length, (performance.now() - t).toFixed(1));
}
process.exit(0);
