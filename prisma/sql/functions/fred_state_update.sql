CREATE OR REPLACE FUNCTION console.fred_state_update(p_ids integer[])
 RETURNS integer
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
 SET "TimeZone" TO 'UTC'
AS $function$
DECLARE
    v_id integer;
    v_count integer := 0;
BEGIN
    IF NOT EXISTS (SELECT FROM console.registry_origin WHERE origin = 'adopted' AND mode <> 'charge') THEN
        RAISE EXCEPTION 'console.fred_state_update: FRED''s engine does not write this registry''s states (the console''s does)'
            USING ERRCODE = 'object_not_in_prerequisite_state';
    END IF;
    IF EXISTS (SELECT FROM unnest(p_ids) i WHERE i IS NULL OR i <= 0) THEN
        RAISE EXCEPTION 'console.fred_state_update: object ids are positive (0 would be FRED''s whole procedure)'
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF EXISTS (SELECT FROM pg_class c
                WHERE c.relname = 'tmp_object_state_change'
                  AND (c.relnamespace <> pg_my_temp_schema()
                       OR c.relowner <> (SELECT r.oid FROM pg_roles r WHERE r.rolname = current_user)
                       OR c.relkind <> 'r' OR c.relhasrules OR c.relrowsecurity OR c.relforcerowsecurity
                       OR EXISTS (SELECT FROM pg_trigger t WHERE t.tgrelid = c.oid)
                       OR EXISTS (SELECT FROM pg_policy p WHERE p.polrelid = c.oid)
                       OR EXISTS (SELECT FROM pg_attrdef d WHERE d.adrelid = c.oid))
                  AND (c.relnamespace = pg_my_temp_schema() OR pg_table_is_visible(c.oid)))
    THEN
        RAISE EXCEPTION 'console.fred_state_update: a table tmp_object_state_change (FRED''s work table) belongs to another role '
                        'or has triggers, rules, policies or defaults; FRED''s function is run only with its own'
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    -- One writer per object, as every console writer (console.lock_objects).
    PERFORM 1 FROM object_registry WHERE id = ANY (p_ids) ORDER BY id FOR NO KEY UPDATE;
    -- FRED's function dates what it writes at the transaction's start. A state row of the object
    -- dated later was written by a transaction that began after this one and committed while this
    -- one waited for the object: writing now would end a state before it began. The transaction is
    -- a serialization victim and runs again (lib/db/driver.ts runAgainIfVictim), with a later start.
    IF EXISTS (SELECT FROM object_state s
                WHERE s.object_id = ANY (p_ids)
                  AND (s.valid_from > CURRENT_TIMESTAMP::timestamp OR s.valid_to > CURRENT_TIMESTAMP::timestamp)) THEN
        RAISE EXCEPTION 'console.fred_state_update: the object''s states changed after this transaction began; run it again'
            USING ERRCODE = 'serialization_failure';
    END IF;
    FOR v_id IN SELECT DISTINCT i FROM unnest(p_ids) i JOIN object_registry o ON o.id = i ORDER BY i LOOP
        PERFORM public.update_object_states(v_id);
        v_count := v_count + 1;
    END LOOP;
    RETURN v_count;
END
$function$;
