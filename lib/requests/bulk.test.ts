import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testBackends } from "../../testing/databases";
import { createDomain, createObject, registryAt, TYPE } from "../../testing/registry";
import { actAs, signedInAs } from "../../testing/sessions";
import { render } from "../actions/message";
import type { InputError } from "../actions/result";
import type { RequestContext } from "../auth/request-context";
import type { Database } from "../db/client";
import { bulkFilterPreview, bulkSelection, bulkStateChange } from "./bulk";

describe.each(testBackends())("bulk requests and blocks on $name", (backend) => {
  let db: Database;
  let drop: () => Promise<void>;
  let operator: RequestContext;

  beforeAll(async () => {
    ({ db, drop } = await registryAt(backend, new Date(), async (tx) => {
      const holder = await createObject(tx, TYPE.contact, "BULK-HOLDER", "2020-01-01T00:00:00Z");
      for (const name of ["one.cz", "two.cz", "three.cz", "four.cz"])
        await createDomain(tx, { name, crdate: "2021-01-01T00:00:00Z", exdate: "2030-01-01", registrant: holder, nsset: null });
      // One handle for an nsset and a keyset (each type has its own namespace).
      const nsset = await createObject(tx, TYPE.nsset, "TWIN", "2020-01-01T00:00:00Z");
      await tx.query("UPDATE object_registry SET roid = 'ROID-TWIN-NSSET' WHERE id = $1", [nsset]);
      await createObject(tx, TYPE.keyset, "TWIN", "2020-01-01T00:00:00Z");
    }));
    operator = await signedInAs(db, "operator");
  });
  afterAll(() => drop());

  const bulk = (input: Record<string, unknown>) =>
    actAs(operator, () => bulkStateChange({ kind: "block", reason: "bulk test", batchId: randomUUID(), ...input }));
  const requests = async () => (await db.sql.query<{ n: number }>("SELECT count(*)::int AS n FROM object_state_request"))[0].n;

  it("dry-runs per object, naming each refusal, and changes nothing", async () => {
    const before = await requests();
    const result = await bulk({ names: "one.cz\nTWO.CZ, nowhere.cz\n\nTWIN", apply: false });
    expect(result.message).toBe("Dry run: 2 of 4 will apply, 2 refused; nothing was changed.");
    expect(result.outcomes.map((o) => [o.name, o.ok])).toEqual([
      ["one.cz", true],
      ["TWO.CZ", true],
      ["nowhere.cz", false],
      ["TWIN", false],
    ]);
    expect(result.outcomes[0].message).toMatch(/^will apply: one\.cz blocked from now with no end/);
    expect(result.outcomes[2].message).toBe("There is no live object named nowhere.cz.");
    expect(result.outcomes[3].message).toBe("TWIN names several objects (nsset, keyset); choose a type.");
    expect(await requests()).toBe(before);
  });

  it("takes its objects from the object list's filter instead of a pasted list", async () => {
    const result = await bulk({ names: "", filter: "type=domain&q=ou&match=contains", apply: false });
    expect(result.outcomes.map((o) => o.name)).toEqual(["four.cz"]);
    expect(result.message).toBe("Dry run: 1 of 1 will apply; nothing was changed.");
    // The page counts the same objects before the dry run, without reading them.
    expect(await actAs(operator, () => bulkFilterPreview("type=domain&q=ou&match=contains"))).toEqual({
      count: 1,
      more: false,
      type: "domain",
      notices: [],
    });
    expect(await actAs(operator, () => bulkFilterPreview("type=domain"))).toMatchObject({ count: 4, more: false });
    await expect(bulk({ names: "", filter: "type=zone", apply: false })).rejects.toThrow(
      /^The list filter is not valid: Unknown object type “zone”/,
    );
    // Each of the filter's notices, in the reader's language.
    const invalid: InputError = await bulk({ names: "", filter: "type=zone&states=bogus", apply: false }).catch((error) => error);
    expect(invalid.message).toBe(
      "The list filter is not valid: Unknown object type “zone”; showing all types. Unknown state “bogus”; it was left out of the state filter.",
    );
    expect(render(invalid.text, "cs")).toBe(
      "Filtr seznamu není platný: Neznámý typ objektu „zone“; zobrazují se všechny typy. Neznámý stav „bogus“; byl vynechán z filtru stavů.",
    );
  });

  it("fills the form with the objects chosen on the list, by id, and counts the ids that name no live object", async () => {
    const [{ ids }] = await db.sql.query<{ ids: number[] }>(
      "SELECT array_agg(id ORDER BY name DESC) AS ids FROM object_registry WHERE name IN ('one.cz', 'two.cz', 'three.cz')",
    );
    const chosen = await actAs(operator, () => bulkSelection(`${ids.join(",")},999999,abc,${ids[0]}`));
    expect(chosen).toEqual({ names: ["two.cz", "three.cz", "one.cz"], type: "domain", missing: 2 });
    const [{ twin }] = await db.sql.query<{ twin: number[] }>("SELECT array_agg(id) AS twin FROM object_registry WHERE name = 'TWIN'");
    expect(await actAs(operator, () => bulkSelection(twin.join(",")))).toMatchObject({ names: ["TWIN", "TWIN"], type: null });
    // Only those who may make bulk changes read the selection.
    await expect(actAs(await signedInAs(db, "support"), () => bulkSelection(ids.join(",")))).rejects.toThrow(/not allowed|may not/i);
  });

  it("applies all or nothing", async () => {
    const before = await requests();
    const refused = await bulk({ names: "one.cz two.cz nowhere.cz", apply: true });
    expect(refused.applied).toBe(false);
    expect(refused.message).toBe("1 of 3 cannot be applied; nothing was changed. Fix or remove them and try again.");
    expect(refused.refused).toBe(1);
    expect(await requests()).toBe(before);
    // The objects that passed name no request (none was made), only what they would have got.
    expect(refused.outcomes.map((o) => [o.name, o.ok, o.made])).toEqual([
      ["one.cz", true, false],
      ["two.cz", true, false],
      ["nowhere.cz", false, false],
    ]);
    for (const o of refused.outcomes.slice(0, 2)) {
      expect(o.message).toMatch(/^not made, as the batch was refused: .* blocked from now/);
      expect(o.message).not.toMatch(/Block \d+|Request \d+/);
    }

    const batchId = randomUUID();
    const applied = await bulk({
      names: "one.cz two.cz three.cz",
      apply: true,
      batchId,
      from: "",
      prohibitions: ["serverUpdateProhibited"],
    });
    expect(applied).toMatchObject({ applied: true, message: `Applied to all 3 objects (batch ${batchId}).` });
    const [{ n }] = await db.sql.query<{ n: number }>("SELECT count(*)::int AS n FROM console.request_meta WHERE batch_id = $1", [batchId]);
    expect(n).toBe(6);
    const audited = await db.sql.query<{ action: string; batch: string | null }>(
      "SELECT action, input->>'batchId' AS batch FROM console.audit_log WHERE input->>'batchId' = $1 ORDER BY id",
      [batchId],
    );
    expect(audited.map((a) => a.action)).toEqual(["block.create", "block.create", "block.create", "bulk.apply"]);
    // The same batch sent again does nothing new.
    const again = await actAs(operator, () =>
      bulkStateChange({ kind: "block", reason: "bulk test", batchId, names: "one.cz two.cz three.cz", apply: true }),
    );
    expect(again.message).toBe("This batch was already applied (6 requests); nothing new was done.");
    // A request for many: refused where a block holds.
    const request = await bulk({ kind: "request", state: "serverTransferProhibited", names: "three.cz four.cz", apply: false });
    expect(request.outcomes.map((o) => o.ok)).toEqual([false, true]);
    expect(request.outcomes[0].message).toMatch(/^three\.cz is administratively blocked/);
  });
});
