CREATE OR REPLACE FUNCTION console.charge_objects_capture(p_all boolean)
 RETURNS void
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'pg_temp'
AS $function$
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
$function$;
