CREATE OR REPLACE FUNCTION console.object_state_request_check()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public', 'pg_temp'
AS $function$
DECLARE
    v_object record;
    v_state record;
    v_other record;
    v_period tsrange := console.request_period(NEW.valid_from, NEW.valid_to, NEW.canceled);
BEGIN
    SELECT o.id, o.name, o.erdate, t.name AS type_name, o.type INTO v_object
      FROM object_registry o JOIN enum_object_type t ON t.id = o.type WHERE o.id = NEW.object_id;
    IF NOT FOUND THEN
        RETURN NEW;  -- the foreign key refuses it
    END IF;
    SELECT s.id, s.name, s.manual, s.types INTO v_state FROM enum_object_states s WHERE s.id = NEW.state_id;
    IF NOT FOUND THEN
        RETURN NEW;  -- the foreign key refuses it
    END IF;
    IF NEW.valid_to IS NOT NULL AND NEW.valid_to <= NEW.valid_from THEN
        RAISE EXCEPTION 'object_state_request: the end (% UTC) must be after the start (% UTC)', NEW.valid_to, NEW.valid_from
            USING ERRCODE = 'check_violation';
    END IF;
    IF TG_OP = 'UPDATE' AND NEW.object_id = OLD.object_id AND NEW.state_id = OLD.state_id
       AND v_period <@ console.request_period(OLD.valid_from, OLD.valid_to, OLD.canceled) THEN
        RETURN NEW;
    END IF;
    IF NOT v_state.manual THEN
        RAISE EXCEPTION 'object_state_request: % is an automatic state; only manual states can be requested', v_state.name
            USING ERRCODE = 'check_violation';
    END IF;
    IF NOT v_object.type = ANY (v_state.types) THEN
        RAISE EXCEPTION 'object_state_request: % is not valid for a % (object %)', v_state.name, v_object.type_name, v_object.name
            USING ERRCODE = 'check_violation';
    END IF;
    IF TG_OP = 'INSERT' AND v_object.erdate IS NOT NULL THEN
        RAISE EXCEPTION 'object_state_request: object % was deleted on % UTC', v_object.name, v_object.erdate
            USING ERRCODE = 'check_violation';
    END IF;
    -- One writer per object at a time checks and writes, so two racing requests cannot both pass.
    -- The lock is one of 512 per object id (not one per object), so a transaction writing requests
    -- for 10,000 objects holds at most 512 entries of the server's lock table.
    PERFORM pg_advisory_xact_lock(7353004, NEW.object_id % 512);
    -- Two requests for the same state on the same object never hold at the same time (FRED's rule),
    -- and serverOutzoneManual (5) and serverInzoneManual (6) never hold together on one domain (FRED
    -- lets them, and outzone wins; here the second is refused).
    SELECT r.id, r.state_id INTO v_other
      FROM object_state_request r
     WHERE r.object_id = NEW.object_id AND r.id IS DISTINCT FROM NEW.id
       AND (r.state_id = NEW.state_id OR (NEW.state_id IN (5, 6) AND r.state_id IN (5, 6)))
       AND console.request_period(r.valid_from, r.valid_to, r.canceled) && v_period
     ORDER BY r.state_id = NEW.state_id DESC, r.id
     LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'object_state_request: request % for % overlaps request % on object %',
                        coalesce(NEW.id::text, '(new)'), v_state.name, v_other.id, v_object.name
            USING ERRCODE = 'exclusion_violation',
                  CONSTRAINT = CASE WHEN v_other.state_id = NEW.state_id THEN 'object_state_request_no_overlap'
                                    ELSE 'object_state_request_zone_exclusive' END;
    END IF;
    RETURN NEW;
END
$function$;
