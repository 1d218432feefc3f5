CREATE OR REPLACE FUNCTION console.state_object_update()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
DECLARE
    v_at timestamptz;
    v_later boolean := coalesce(NEW.update > OLD.update, OLD.update IS NULL AND NEW.update IS NOT NULL);
BEGIN
    IF EXISTS (SELECT 1 FROM object_state os WHERE os.object_id = NEW.id AND os.state_id = 16 AND os.valid_to IS NULL)
       OR (SELECT o.type FROM object_registry o WHERE o.id = NEW.id) NOT IN (1, 2, 4) THEN
        RETURN NULL;
    END IF;
    v_at := console.state_clock();
    IF NOT console.state_engine_open(NEW.id, v_at) THEN
        RETURN NULL;
    END IF;
    -- Updated later, nothing due, no work pending, no deleteCandidate open: deleteCandidate only
    -- moves later (decided holding the engine's lock shared, so no run applies older data after).
    IF v_later
       AND EXISTS (SELECT 1 FROM console.state_next_event ne WHERE ne.object_id = NEW.id AND ne.next_at > v_at)
       AND NOT EXISTS (SELECT 1 FROM console.state_pending sp WHERE sp.object_id = NEW.id)
       AND NOT EXISTS (SELECT 1 FROM object_state os WHERE os.object_id = NEW.id AND os.state_id = 17 AND os.valid_to IS NULL) THEN
        RETURN NULL;
    END IF;
    -- Updated later: the shortcut for a delete candidate (p_link 3), else the general recomputation.
    PERFORM console.state_changed(NEW.id, CASE WHEN v_later THEN 3 ELSE 0 END::smallint,
                                  NULL, coalesce(OLD.update AT TIME ZONE 'UTC', '-infinity'));
    RETURN NULL;
END
$function$;
