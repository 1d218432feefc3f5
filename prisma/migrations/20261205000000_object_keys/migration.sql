-- Issue 40: the object list's keys leave FRED's tables. FRED rewrites an object's object_registry row
-- in every command (historyid, which FRED indexes, so the update is never HOT), and each of the
-- console's six indexes on that table gained an entry per command: beside, a renew at 1.5 million
-- domains cost 6–11 % more with them and nothing measurable without them (bench/RESULTS.md). The
-- list now walks console.object_key, the console's copy of what never changes in an object's row
-- (id, type, name, crdate) and of erdate, with those indexes.
--
-- Who keeps the copy: in charge (and on a registry the console created) a trigger on
-- object_registry's inserts and erdate updates, which never fires on FRED's historyid updates;
-- beside and in shadow, where the console has no trigger on FRED's tables, the scheduler's pass
-- (console.object_keys_catch_up): new ids since a few minutes before the previous pass, by FRED's
-- primary key, and an hourly sweep of everything (objects missed, erdate: FRED leaves no other trace
-- of a deletion to find it by). Beside and in shadow the list therefore asks FRED's row whether an
-- object is alive (lib/objects/filter.ts). README "Running on an existing FRED database" says what a
-- person sees: beside, an object FRED created appears in lists within one scheduler interval, one
-- FRED deleted leaves them at once and is among the deleted ones after the sweep.
CREATE TABLE console.object_key (
    id integer PRIMARY KEY,
    type smallint,
    name varchar(255) NOT NULL,
    crdate timestamp NOT NULL,
    erdate timestamp
);
COMMENT ON TABLE console.object_key IS
    'The object list''s copy of object_registry''s id, type, name, crdate and erdate (issue 40): the list''s indexes live here, not on FRED''s table.';

INSERT INTO console.object_key (id, type, name, crdate, erdate)
SELECT id, type, name, crdate, erdate FROM object_registry;

-- The same orders and searches as the indexes they replace (migrations 20261124030000, 20261124080000).
CREATE INDEX object_key_live_lower_name_idx ON console.object_key (lower(name), id) INCLUDE (name, type, crdate)
    WHERE erdate IS NULL;
CREATE INDEX object_key_live_type_lower_name_idx ON console.object_key (type, lower(name), id) WHERE erdate IS NULL;
CREATE INDEX object_key_live_crdate_idx ON console.object_key (crdate, id) WHERE erdate IS NULL;
CREATE INDEX object_key_type_crdate_idx ON console.object_key (type, crdate, id);
CREATE INDEX object_key_name_trgm_idx ON console.object_key USING gin (lower(name) gin_trgm_ops);

-- console_object_registry_crid_idx had no reader left; the others moved above.
DROP INDEX IF EXISTS console_object_registry_live_lower_name_idx;
DROP INDEX IF EXISTS console_object_registry_live_type_lower_name_idx;
DROP INDEX IF EXISTS console_object_registry_live_crdate_idx;
DROP INDEX IF EXISTS console_object_registry_type_crdate_idx;
DROP INDEX IF EXISTS console_object_registry_crid_idx;
DROP INDEX IF EXISTS console_object_registry_name_trgm_idx;
DELETE FROM console.charge_objects
 WHERE kind = 'index' AND name IN ('console_object_registry_live_lower_name_idx',
                                   'console_object_registry_live_type_lower_name_idx',
                                   'console_object_registry_live_crdate_idx',
                                   'console_object_registry_type_crdate_idx',
                                   'console_object_registry_crid_idx',
                                   'console_object_registry_name_trgm_idx');

-- The same holds for FRED's domain row, rewritten by a renew (exdate) and an update (nsset), both
-- indexed by FRED: the list's expiration order uses FRED's own domain_exdate_idx (ties in id order
-- are sorted among one day's domains). console_domain_keyset_idx stays in every mode: FRED's own
-- trigger looks domains up by keyset when one loses its keyset and has no index for it, and with
-- this one the nsset change's p95 drops from 107 to 7 ms at 1.5 million domains (bench/RESULTS.md).
DROP INDEX IF EXISTS console_domain_exdate_id_idx;
DELETE FROM console.charge_objects WHERE kind = 'index' AND name = 'console_domain_exdate_id_idx';

-- Where the scheduler's pass starts: `low` trails `high` (the highest id seen at `high_at`) by at
-- least five minutes, so an id taken by a transaction that committed after a later id did is still
-- read; the hourly sweep finds anything older.
CREATE TABLE console.object_key_cursor (
    one boolean PRIMARY KEY DEFAULT true CHECK (one),
    low integer NOT NULL DEFAULT 0,
    high integer NOT NULL DEFAULT 0,
    high_at timestamptz,
    swept_at timestamptz,
    -- The previous pass.
    checked_at timestamptz
);
INSERT INTO console.object_key_cursor (low, high, high_at, swept_at)
SELECT coalesce(max(id), 0), coalesce(max(id), 0), now(), now() FROM console.object_key;

-- The trigger's function: copies the row it fires for, nothing else. Runs as the owner for every
-- role that writes object_registry (FRED's), which has no right on console.object_key.
CREATE FUNCTION console.object_key_copy()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
AS $function$
BEGIN
    IF TG_OP = 'DELETE' THEN
        DELETE FROM console.object_key WHERE id = OLD.id;
        RETURN NULL;
    END IF;
    INSERT INTO console.object_key (id, type, name, crdate, erdate)
    VALUES (NEW.id, NEW.type, NEW.name, NEW.crdate, NEW.erdate)
    ON CONFLICT (id) DO UPDATE SET type = excluded.type, name = excluded.name, crdate = excluded.crdate, erdate = excluded.erdate;
    RETURN NULL;
END
$function$;
REVOKE ALL ON FUNCTION console.object_key_copy() FROM PUBLIC;

-- Fires on a new object and on a deletion (FRED sets erdate; a row removed, which FRED never does,
-- leaves the copy too), never on FRED's per-command historyid update. Beside and in shadow the move (and any migration, lib/db/adoption-mode.ts) drops it and
-- console.charge_objects keeps it for charge.
CREATE TRIGGER console_object_key_copy AFTER INSERT OR DELETE OR UPDATE OF erdate, name, type, crdate ON object_registry
    FOR EACH ROW EXECUTE FUNCTION console.object_key_copy();

-- The scheduler's pass beside and in shadow (and on a move to charge, p_sweep): copies the objects
-- FRED created since the cursor's `low`; with p_sweep, or when the last sweep is an hour old, also
-- every object missing from the copy and every erdate FRED set since. Returns the rows it changed.
CREATE FUNCTION console.object_keys_catch_up(p_sweep boolean DEFAULT false)
 RETURNS integer
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
AS $function$
DECLARE
    v_cursor console.object_key_cursor;
    v_new integer;
    v_gone integer := 0;
    v_high integer;
BEGIN
    SELECT * INTO v_cursor FROM console.object_key_cursor FOR UPDATE;
    IF NOT FOUND THEN
        INSERT INTO console.object_key_cursor DEFAULT VALUES RETURNING * INTO v_cursor;
    END IF;
    p_sweep := p_sweep OR v_cursor.swept_at IS NULL OR v_cursor.swept_at < now() - interval '1 hour';
    IF p_sweep THEN
        INSERT INTO console.object_key (id, type, name, crdate, erdate)
        SELECT r.id, r.type, r.name, r.crdate, r.erdate FROM public.object_registry r
         WHERE NOT EXISTS (SELECT FROM console.object_key k WHERE k.id = r.id);
        GET DIAGNOSTICS v_new = ROW_COUNT;
        UPDATE console.object_key k SET erdate = r.erdate FROM public.object_registry r
         WHERE r.id = k.id AND k.erdate IS DISTINCT FROM r.erdate;
        GET DIAGNOSTICS v_gone = ROW_COUNT;
        DELETE FROM console.object_key k WHERE NOT EXISTS (SELECT FROM public.object_registry r WHERE r.id = k.id);
        v_cursor.swept_at := now();
    ELSE
        INSERT INTO console.object_key (id, type, name, crdate, erdate)
        SELECT r.id, r.type, r.name, r.crdate, r.erdate FROM public.object_registry r
         WHERE r.id > v_cursor.low
        ON CONFLICT (id) DO NOTHING;
        GET DIAGNOSTICS v_new = ROW_COUNT;
    END IF;
    IF v_cursor.high_at IS NULL OR v_cursor.high_at < now() - interval '5 minutes' THEN
        SELECT coalesce(max(id), 0) INTO v_high FROM public.object_registry;
        UPDATE console.object_key_cursor
           SET low = v_cursor.high, high = v_high, high_at = now(), swept_at = v_cursor.swept_at, checked_at = now();
    ELSE
        UPDATE console.object_key_cursor SET swept_at = v_cursor.swept_at, checked_at = now();
    END IF;
    RETURN v_new + v_gone;
END
$function$;
REVOKE ALL ON FUNCTION console.object_keys_catch_up(boolean) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION console.object_keys_catch_up(boolean) TO console_app;

-- The running console reads the copy (its list); only the owner's code writes it.
GRANT SELECT ON console.object_key TO console_app;
