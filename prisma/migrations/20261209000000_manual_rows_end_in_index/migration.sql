-- Issue 41: "had serverBlocked at T" sorted by when the block ended. The list reads the manual
-- state's rows that began before T twice (its filter, and the set its order comes from), and each
-- row's end (valid_to) was fetched from FRED's table: 22,703 rows, 70-130 ms of a 264 ms page at
-- 1.5 million domains. console_object_state_manual_idx now carries valid_to, so both reads are
-- index-only. Its rows are the manual states' alone (FRED's automatic state writes still skip it),
-- and valid_to is in FRED's own object_state_valid_to_idx already, so no write of FRED's that was a
-- HOT update stops being one. The predicate is the index's own, kept as it is.
DO $$
DECLARE
    v_predicate text;
BEGIN
    SELECT pg_get_expr(i.indpred, i.indrelid) INTO v_predicate
      FROM pg_index i WHERE i.indexrelid = to_regclass('public.console_object_state_manual_idx');
    IF v_predicate IS NULL THEN
        SELECT format('state_id IN (%s)', string_agg(id::text, ', ' ORDER BY id)) INTO v_predicate
          FROM enum_object_states WHERE manual;
    END IF;
    DROP INDEX IF EXISTS public.console_object_state_manual_idx;
    EXECUTE format('CREATE INDEX console_object_state_manual_idx ON public.object_state (object_id, state_id, valid_from) INCLUDE (valid_to) WHERE %s',
                   v_predicate);
END
$$;

-- An adopted registry keeps the definitions of the console's objects on FRED's tables to restore them
-- when it moves between modes: this index's is now the new one (the index is kept in every mode).
DO $$
BEGIN
    IF EXISTS (SELECT FROM console.registry_origin WHERE origin = 'adopted') THEN
        PERFORM console.charge_objects_capture(false);
    END IF;
END
$$;
