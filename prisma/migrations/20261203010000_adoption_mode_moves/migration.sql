-- Issue 40: moving an adopted FRED registry between the modes beside, shadow and charge
-- (`npm run db:adopt -- --mode …`, lib/db/adoption-mode.ts; README "Running on an existing FRED database").
--
-- console.charge_objects holds, in the owner's database, what the console adds to FRED's objects in
-- charge: the console_* triggers and indexes on FRED's tables (their DDL as the catalogue prints it)
-- and its own public.update_object_states(integer). Moving to beside or shadow drops the triggers
-- and the indexes beside does not keep, and gives FRED its own function back (from
-- console.replaced_fred_objects); moving to charge creates them again from here. FRED's six state
-- triggers to disable in charge are the 'trigger' rows of console.replaced_fred_objects.
--
-- `beside`: the index stays on FRED's table in beside and shadow (the console's own lists and pages
-- read through it; the dry run lists them). A migration that adds an index on FRED's tables decides
-- here whether beside keeps it; one that drops or renames a console trigger or index on FRED's
-- tables deletes its row here too (in beside no such trigger exists to drop, and the row would
-- bring it back in charge). A migration that creates one needs nothing more: in beside and shadow
-- every migration is followed, in its own transaction, by console.charge_objects_capture(false) and
-- the move back to the mode's catalogue (lib/db/adoption-mode.ts enforceMode).
CREATE TABLE console.charge_objects (
    kind text NOT NULL CHECK (kind IN ('function', 'trigger', 'index')),
    -- The table a trigger or an index is on (schema-qualified); '' for a function.
    tbl text NOT NULL,
    name text NOT NULL,
    definition text NOT NULL,
    beside boolean NOT NULL DEFAULT false CHECK (kind = 'index' OR NOT beside),
    captured_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (kind, tbl, name)
);

-- The owner executes these definitions: the running console's role may read them, never write them.
DO $$
BEGIN
    IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'console_app') THEN
        REVOKE INSERT, UPDATE, DELETE, TRUNCATE ON console.charge_objects FROM console_app;
    END IF;
END
$$;

-- Records the console's objects on FRED's tables as they are now. p_all: the whole set (the registry
-- is in charge: what is not there any more is forgotten); else only what is there (a migration run
-- in beside or shadow created it), added or updated. A trigger or index keeps its `beside` choice.
CREATE FUNCTION console.charge_objects_capture(p_all boolean) RETURNS void
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    v_fred text;
    v_now text;
BEGIN
    IF p_all THEN
        DELETE FROM console.charge_objects o
         WHERE (o.kind = 'trigger' AND NOT EXISTS (SELECT FROM pg_trigger t WHERE t.tgrelid = to_regclass(o.tbl) AND t.tgname = o.name))
            OR (o.kind = 'index' AND to_regclass('public.' || quote_ident(o.name)) IS NULL);
    END IF;
    -- pg_get_triggerdef and pg_get_indexdef name the table in full under this search_path.
    INSERT INTO console.charge_objects (kind, tbl, name, definition)
    SELECT 'trigger', t.tgrelid::regclass::text, t.tgname, pg_get_triggerdef(t.oid)
      FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
     WHERE NOT t.tgisinternal AND c.relnamespace = 'public'::regnamespace AND t.tgname LIKE 'console\_%'
    UNION ALL
    SELECT 'index', i.indrelid::regclass::text, ci.relname, pg_get_indexdef(i.indexrelid)
      FROM pg_index i JOIN pg_class ci ON ci.oid = i.indexrelid
     WHERE ci.relnamespace = 'public'::regnamespace AND ci.relname LIKE 'console\_%'
    ON CONFLICT (kind, tbl, name) DO UPDATE SET definition = excluded.definition, captured_at = now();

    -- The console's update_object_states: the one in the catalogue when it is not FRED's own.
    SELECT definition INTO v_fred FROM console.replaced_fred_objects
     WHERE kind = 'function' AND name = 'update_object_states(integer)';
    v_now := pg_get_functiondef(to_regprocedure('public.update_object_states(integer)'));
    IF v_fred IS NOT NULL AND v_now IS NOT NULL AND v_now IS DISTINCT FROM v_fred THEN
        INSERT INTO console.charge_objects (kind, tbl, name, definition)
        VALUES ('function', '', 'update_object_states(integer)', v_now)
        ON CONFLICT (kind, tbl, name) DO UPDATE SET definition = excluded.definition, captured_at = now();
    END IF;
END
$$;
REVOKE EXECUTE ON FUNCTION console.charge_objects_capture(boolean) FROM PUBLIC;

-- Every adopted registry is in charge when this runs (the migrations before installed charge; a new
-- adoption in beside moves there after the last migration, in the same transaction).
DO $$
BEGIN
    IF EXISTS (SELECT FROM console.registry_origin WHERE origin = 'adopted') THEN
        PERFORM console.charge_objects_capture(true);
    END IF;
END
$$;

-- What beside and shadow keep: the indexes the console's own reads use (the object list's orders and
-- name search, domains by expiration and keyset, objects in a state now, manual states' rows,
-- requests by object, state, start and end). Not kept: console_keyset_contact_map_contactid_idx, the
-- console engine's "is this contact linked" probe, used by its triggers in charge only.
UPDATE console.charge_objects SET beside = true
 WHERE kind = 'index' AND name IN ('console_object_registry_live_lower_name_idx',
                                   'console_object_registry_live_type_lower_name_idx',
                                   'console_object_registry_live_crdate_idx',
                                   'console_object_registry_type_crdate_idx',
                                   'console_object_registry_crid_idx',
                                   'console_object_registry_name_trgm_idx',
                                   'console_domain_exdate_id_idx',
                                   'console_domain_keyset_idx',
                                   'console_object_state_open_idx',
                                   'console_object_state_manual_idx',
                                   'console_object_state_request_object_idx',
                                   'console_object_state_request_active_idx',
                                   'console_object_state_request_valid_to_idx',
                                   'console_object_state_request_valid_from_id_idx');
