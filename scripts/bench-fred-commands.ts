// FRED's whole commands as pgbench scripts (issue 40): each a transaction of 20–50 statements as
// fred-server 2.54.1 / libfred 5.3.1 issue them (../shared/reference/FRED.md §4.4 and §4.6), on
// FRED's own tables (fred-db 2.52 structure.sql). The statements follow FRED.md's account of each
// command (which rows, which locks, which calls, in which order), not a capture of fred-server's
// wire traffic: libfred's look-ups by handle are done by id here, and its reads of a whole object
// (info) are one query each. `:dlo`…`:rhi` are the id ranges bench-fred.ts passes with -D.
//
// Every script runs on an adopted registry and on its un-adopted copy alike; what differs is which
// triggers fire (the console's or FRED's) and what `update_object_states` is.

export interface FredCommand {
  key: string;
  title: string;
  /** Statements one execution issues (BEGIN and COMMIT included), for the table. */
  statements: string;
  script: string;
}

// Shared pieces. The EPP session's registrar is the object's sponsoring registrar (the only one
// FRED lets renew or update it), read first as fred-server's session check reads the registrar.
const domainRegistrar = `SELECT o.clid AS registrar FROM object_registry r JOIN object o ON o.id = r.id WHERE r.id = :id AND r.type = 3 AND r.erdate IS NULL \\gset
SELECT id, handle, system FROM registrar WHERE id = :registrar FOR SHARE;
SELECT z.id AS zone, z.ex_period_min, z.ex_period_max, z.enum_zone FROM zone z JOIN domain d ON d.zone = z.id WHERE d.id = :id FOR SHARE OF z \\gset
SELECT count(*) AS access FROM registrarinvoice WHERE registrarid = :registrar AND zone = :zone AND fromdate <= current_date AND (todate IS NULL OR todate >= current_date) \\gset
`;
// libfred's InfoDomain: the domain, its admin contacts, its states (GetObjectStates), its enumval.
const domainInfo = `SELECT 1 FROM object_registry WHERE id = :id AND erdate IS NULL FOR UPDATE;
SELECT r.name, r.roid, r.historyid, d.zone, d.registrant, d.nsset, d.keyset, d.exdate, o.clid, o.upid, o.update, o.trdate, o.authinfopw FROM object_registry r JOIN object o ON o.id = r.id JOIN domain d ON d.id = r.id WHERE r.id = :id FOR UPDATE OF d;
SELECT c.id, c.name FROM domain_contact_map m JOIN object_registry c ON c.id = m.contactid WHERE m.domainid = :id AND m.role = 1 ORDER BY c.name;
SELECT s.name FROM object_state os JOIN enum_object_states s ON s.id = os.state_id WHERE os.object_id = :id AND os.valid_to IS NULL ORDER BY s.id;
SELECT exdate, publish FROM enumval WHERE domainid = :id;
`;
// A new version of the domain: history, object_registry.historyid (FRED's trigger closes the old
// version), object_history and the three per-type history rows.
const domainHistory = `INSERT INTO history (valid_from, request_id) VALUES (now(), NULL) RETURNING id AS hid \\gset
UPDATE object_registry SET historyid = :hid WHERE id = :id;
INSERT INTO object_history (historyid, id, clid, upid, trdate, update, authinfopw) SELECT :hid, id, clid, upid, trdate, update, authinfopw FROM object WHERE id = :id;
INSERT INTO domain_history (historyid, id, zone, registrant, nsset, keyset, exdate) SELECT :hid, id, zone, registrant, nsset, keyset, exdate FROM domain WHERE id = :id;
INSERT INTO domain_contact_map_history (historyid, domainid, contactid, role) SELECT :hid, domainid, contactid, role FROM domain_contact_map WHERE domainid = :id;
INSERT INTO enumval_history (historyid, domainid, exdate, publish) SELECT :hid, domainid, exdate, publish FROM enumval WHERE domainid = :id;
`;
// libfred's UpdateObject before the history: the object row.
const objectUpdated = "UPDATE object SET upid = :registrar, update = now() WHERE id = :id;\n";

/** The manual states blockDomainsId sets (Daphne's default three) and serverBlocked. */
const BLOCK_STATES = [3, 4, 1, 7];

/** A libfred CreateObjectStateRequestId for one state: its overlap check, then the row. */
const stateRequest = (state: number) =>
  `SELECT count(*) AS out_of_turn FROM object_state_request WHERE object_id = :id AND state_id = ${state} AND (LEAST(canceled, valid_to) < valid_from OR (valid_from <= now() AND coalesce(LEAST(canceled, valid_to), 'infinity') > now())) \\gset
INSERT INTO object_state_request (object_id, state_id, valid_from, valid_to, crdate) VALUES (:id, ${state}, now(), NULL, now()) RETURNING id AS request${state} \\gset
`;

export const fredCommands: FredCommand[] = [
  {
    key: "renew",
    title: "domain renew with charging",
    statements: "25",
    script: `\\set id random(:dlo, :dhi)
BEGIN;
${domainRegistrar}${domainInfo}SELECT (exdate + interval '12 months')::date > current_date + make_interval(months => :ex_period_max) AS too_far FROM domain WHERE id = :id \\gset
UPDATE domain SET exdate = (exdate + interval '12 months')::date WHERE id = :id;
SELECT id AS price_id, price, quantity FROM price_list WHERE zone_id = :zone AND operation_id = 2 AND valid_from <= now() AND (valid_to IS NULL OR valid_to > now()) ORDER BY valid_from DESC LIMIT 1 \\gset
SELECT id AS credit_id, credit FROM registrar_credit WHERE registrar_id = :registrar AND zone_id = :zone FOR UPDATE \\gset
INSERT INTO registrar_credit_transaction (balance_change, registrar_credit_id) VALUES (-:price, :credit_id) RETURNING id AS transaction_id \\gset
INSERT INTO invoice_operation (ac_invoice_id, crdate, object_id, zone_id, registrar_id, operation_id, date_from, date_to, quantity, registrar_credit_transaction_id) SELECT NULL, now(), :id, :zone, :registrar, 2, current_date, exdate, 12, :transaction_id FROM domain WHERE id = :id;
SELECT credit FROM registrar_credit WHERE id = :credit_id;
${domainHistory}COMMIT;
`,
  },
  {
    key: "nsset",
    title: "domain update, nsset changed (10 % to none)",
    statements: "24–25",
    script: `\\set id random(:dlo, :dhi)
\\set ns random(:nlo, :nhi)
\\set none random(1, 10)
BEGIN;
${domainRegistrar}${domainInfo}\\if :none = 1
UPDATE domain SET nsset = NULL, keyset = NULL WHERE id = :id;
\\else
SELECT id, name FROM object_registry WHERE id = :ns AND type = 2 AND erdate IS NULL FOR SHARE;
UPDATE domain SET nsset = :ns, keyset = NULL WHERE id = :id;
\\endif
${objectUpdated}${domainHistory}COMMIT;
`,
  },
  {
    // Two EPP updates, two transactions; a contact already linked to the domain is refused by
    // fred-server before it writes (then both transactions roll back).
    key: "admin",
    title: "admin contact added, then removed (2 transactions)",
    statements: "2 × 24",
    script: `\\set id random(:dlo, :dhi)
\\set c random(:clo, :chi)
BEGIN;
${domainRegistrar}${domainInfo}SELECT id, name FROM object_registry WHERE id = :c AND type = 1 AND erdate IS NULL FOR SHARE;
SELECT count(*) AS linked FROM domain_contact_map WHERE domainid = :id AND contactid = :c \\gset
\\if :linked
ROLLBACK;
\\else
SAVEPOINT admin_contact;
INSERT INTO domain_contact_map (domainid, contactid, role) VALUES (:id, :c, 1);
RELEASE SAVEPOINT admin_contact;
${objectUpdated}${domainHistory}COMMIT;
BEGIN;
${domainRegistrar}${domainInfo}SELECT id, name FROM object_registry WHERE id = :c AND type = 1 AND erdate IS NULL FOR SHARE;
DELETE FROM domain_contact_map WHERE domainid = :id AND contactid = :c AND role = 1;
${objectUpdated}${domainHistory}COMMIT;
\\endif
`,
  },
  {
    // fred-server's EPP contact update: the lock and update_object_states(id) before the checks,
    // the contact's rows and history, three more update_object_states(id) in its post-hooks, the
    // cancellation of verification requests and poll messages to the registrars of linked domains.
    key: "contact",
    title: "contact update (lock, four `update_object_states(id)`, history, poll messages)",
    statements: "27",
    script: `\\set id random(:clo, :chi)
BEGIN;
SELECT o.clid AS registrar FROM object_registry r JOIN object o ON o.id = r.id WHERE r.id = :id AND r.type = 1 AND r.erdate IS NULL \\gset
SELECT id, handle, system FROM registrar WHERE id = :registrar FOR SHARE;
SELECT 1 FROM object_registry WHERE id = :id AND erdate IS NULL FOR UPDATE;
SELECT lock_object_state_request_lock(:id);
SELECT update_object_states(:id);
SELECT r.name, r.roid, r.historyid, c.*, o.clid, o.upid, o.update, o.authinfopw FROM object_registry r JOIN object o ON o.id = r.id JOIN contact c ON c.id = r.id WHERE r.id = :id;
SELECT s.name FROM object_state os JOIN enum_object_states s ON s.id = os.state_id WHERE os.object_id = :id AND os.valid_to IS NULL ORDER BY s.id;
UPDATE contact SET telephone = '+420.' || (200000000 + :id)::text, email = 'bench' || :id || '@example.cz' WHERE id = :id;
${objectUpdated}INSERT INTO history (valid_from, request_id) VALUES (now(), NULL) RETURNING id AS hid \\gset
UPDATE object_registry SET historyid = :hid WHERE id = :id;
INSERT INTO object_history (historyid, id, clid, upid, trdate, update, authinfopw) SELECT :hid, id, clid, upid, trdate, update, authinfopw FROM object WHERE id = :id;
INSERT INTO contact_history (historyid, id, name, organization, street1, street2, street3, city, stateorprovince, postalcode, country, telephone, fax, email, disclosename, discloseorganization, discloseaddress, disclosetelephone, disclosefax, discloseemail, notifyemail, vat, ssn, ssntype, disclosevat, discloseident, disclosenotifyemail, warning_letter) SELECT :hid, id, name, organization, street1, street2, street3, city, stateorprovince, postalcode, country, telephone, fax, email, disclosename, discloseorganization, discloseaddress, disclosetelephone, disclosefax, discloseemail, notifyemail, vat, ssn, ssntype, disclosevat, discloseident, disclosenotifyemail, warning_letter FROM contact WHERE id = :id;
SELECT update_object_states(:id);
SELECT s.name FROM object_state os JOIN enum_object_states s ON s.id = os.state_id WHERE os.object_id = :id AND os.valid_to IS NULL ORDER BY s.id;
SELECT lock_object_state_request_lock(:id);
UPDATE object_state_request SET canceled = now() WHERE object_id = :id AND state_id IN (SELECT id FROM enum_object_states WHERE name IN ('conditionallyIdentifiedContact', 'identifiedContact', 'validatedContact')) AND canceled IS NULL AND valid_from <= now() AND (valid_to IS NULL OR valid_to > now());
SELECT update_object_states(:id);
SELECT update_object_states(:id);
WITH linked AS (SELECT d.id FROM domain d WHERE d.registrant = :id UNION SELECT m.domainid FROM domain_contact_map m WHERE m.contactid = :id), registrars AS (SELECT DISTINCT o.clid FROM object o JOIN linked l ON l.id = o.id WHERE o.clid <> :registrar), messages AS (INSERT INTO message (clid, crdate, exdate, seen, msgtype) SELECT clid, now(), now() + interval '7 days', false, 22 FROM registrars RETURNING id) INSERT INTO poll_eppaction (msgid, objid) SELECT id, :hid FROM messages;
COMMIT;
`,
  },
  {
    // blockDomainsId (KEEP_OWNER) for one domain, then unblockDomainsId for it (without a new
    // holder or removing admin contacts): two transactions. A domain already blocked is refused
    // (DOMAIN_ID_ALREADY_BLOCKED), and so is one with a request for one of the block's states that
    // the block's clearing leaves (one that starts later) and its new request would overlap, or one
    // libfred's creation refuses (out_of_turn): nothing committed, the domain left as it was.
    key: "block",
    title: "administrative block, then unblock (`blockDomainsId`, `unblockDomainsId`; 2 transactions)",
    statements: "24 + 14",
    script: `\\set id random(:dlo, :dhi)
BEGIN;
SELECT r.id, r.name, d.registrant FROM object_registry r JOIN domain d ON d.id = r.id WHERE r.id = :id AND r.erdate IS NULL FOR UPDATE OF r;
SELECT lock_object_state_request_lock(:id);
SELECT count(*) AS blocked FROM object_state WHERE object_id = :id AND state_id = 7 AND valid_to IS NULL \\gset
SELECT count(*) AS refused FROM object_state_request WHERE object_id = :id AND state_id IN (${BLOCK_STATES.join(", ")}) AND (LEAST(canceled, valid_to) < valid_from OR (canceled IS NULL AND valid_from > now())) \\gset
\\if :blocked + :refused > 0
ROLLBACK;
\\else
SELECT id, name FROM enum_object_states WHERE manual AND name LIKE 'server%' AND name <> 'serverBlocked' AND 3 = ANY (types) ORDER BY id;
UPDATE object_state_request SET canceled = now() WHERE object_id = :id AND state_id IN (SELECT id FROM enum_object_states WHERE manual AND name LIKE 'server%') AND canceled IS NULL AND valid_from <= now() AND (valid_to IS NULL OR valid_to > now());
${BLOCK_STATES.map(stateRequest).join("")}INSERT INTO object_state_request_reason (object_state_request_id, reason_creation) VALUES (:request7, 'bench: administrative block');
SELECT update_object_states(:id);
SELECT s.name FROM object_state os JOIN enum_object_states s ON s.id = os.state_id WHERE os.object_id = :id AND os.valid_to IS NULL ORDER BY s.id;
COMMIT;
BEGIN;
SELECT r.id, r.name, r.historyid AS hid, o.clid AS registrar FROM object_registry r JOIN object o ON o.id = r.id WHERE r.id = :id AND r.erdate IS NULL FOR UPDATE OF r \\gset
SELECT lock_object_state_request_lock(:id);
SELECT count(*) AS blocked FROM object_state WHERE object_id = :id AND state_id = 7 AND valid_to IS NULL \\gset
SELECT id FROM object_state_request WHERE object_id = :id AND state_id IN (SELECT id FROM enum_object_states WHERE manual AND name LIKE 'server%') AND canceled IS NULL AND valid_from <= now() AND (valid_to IS NULL OR valid_to > now()) ORDER BY id;
INSERT INTO object_state_request_reason (object_state_request_id, reason_cancellation) SELECT id, 'bench: administrative unblock' FROM object_state_request WHERE object_id = :id AND state_id IN (SELECT id FROM enum_object_states WHERE manual AND name LIKE 'server%') AND canceled IS NULL AND valid_from <= now() AND (valid_to IS NULL OR valid_to > now()) ON CONFLICT (object_state_request_id) DO UPDATE SET reason_cancellation = EXCLUDED.reason_cancellation;
UPDATE object_state_request SET canceled = now() WHERE object_id = :id AND state_id IN (SELECT id FROM enum_object_states WHERE manual AND name LIKE 'server%') AND canceled IS NULL AND valid_from <= now() AND (valid_to IS NULL OR valid_to > now());
UPDATE domain SET exdate = current_date WHERE id = :id AND exdate < current_date;
SELECT update_object_states(:id);
INSERT INTO message (clid, crdate, exdate, seen, msgtype) VALUES (:registrar, now(), now() + interval '7 days', false, 17) RETURNING id AS msgid \\gset
INSERT INTO poll_eppaction (msgid, objid) VALUES (:msgid, :hid);
COMMIT;
\\endif
`,
  },
];

/** FRED's single statements of the earlier benches, kept as diagnostics (one transaction each). */
export const fredDiagnostics: FredCommand[] = [
  {
    key: "d-renew",
    title: "diagnostic: `UPDATE domain SET exdate` alone",
    statements: "1",
    script: `\\set id random(:dlo, :dhi)
UPDATE domain SET exdate = exdate + 365 WHERE id = :id;
`,
  },
  {
    key: "d-nsset",
    title: "diagnostic: `UPDATE domain SET nsset` alone (10 % to none)",
    statements: "1",
    script: `\\set id random(:dlo, :dhi)
\\set ns random(:nlo, :nhi)
\\set none random(1, 10)
\\if :none = 1
UPDATE domain SET nsset = NULL WHERE id = :id;
\\else
UPDATE domain SET nsset = :ns WHERE id = :id;
\\endif
`,
  },
  {
    key: "d-object",
    title: "diagnostic: a contact's `UPDATE object` alone",
    statements: "1",
    script: `\\set id random(:clo, :chi)
\\set registrar random(:rlo, :rhi)
UPDATE object SET upid = :registrar, update = now() WHERE id = :id;
`,
  },
  {
    key: "d-admin",
    title: "diagnostic: `domain_contact_map` insert, then delete (2 statements)",
    statements: "2",
    script: `\\set d random(:dlo, :dhi)
\\set c random(:clo, :chi)
WITH added AS (INSERT INTO domain_contact_map (domainid, contactid, role) VALUES (:d, :c, 1) ON CONFLICT DO NOTHING RETURNING 1) SELECT count(*) AS added FROM added \\gset
\\if :added
DELETE FROM domain_contact_map WHERE domainid = :d AND contactid = :c AND role = 1;
\\endif
`,
  },
  {
    key: "d-call",
    title: "diagnostic: `update_object_states(id)` alone",
    statements: "1",
    script: `\\set id random(:dlo, :dhi)
SELECT update_object_states(:id);
`,
  },
];

/**
 * What FRED's charging reads, which the demo registry does not hold: a renew price for each zone,
 * each registrar's access to each zone and a credit there large enough for any bench. The same rows
 * in both databases; added once.
 */
export const CHARGING_FIXTURES = [
  `INSERT INTO price_list (zone_id, operation_id, valid_from, valid_to, price, quantity, enable_postpaid_operation)
   SELECT z.id, 2, timestamp '2000-01-01', NULL, 155.00, 12, false FROM zone z
    WHERE NOT EXISTS (SELECT FROM price_list p WHERE p.zone_id = z.id AND p.operation_id = 2)`,
  `INSERT INTO registrarinvoice (registrarid, zone, fromdate, todate)
   SELECT r.id, z.id, date '2000-01-01', NULL FROM registrar r CROSS JOIN zone z
    WHERE NOT EXISTS (SELECT FROM registrarinvoice i WHERE i.registrarid = r.id AND i.zone = z.id)`,
  `INSERT INTO registrar_credit (credit, registrar_id, zone_id)
   SELECT 1000000000000.00, r.id, z.id FROM registrar r CROSS JOIN zone z
   ON CONFLICT (registrar_id, zone_id) DO NOTHING`,
];
