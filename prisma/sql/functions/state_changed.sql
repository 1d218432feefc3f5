CREATE OR REPLACE FUNCTION console.state_changed(p_id integer, p_link smallint DEFAULT 0, p_old_exdate date DEFAULT NULL::date, p_old_updated timestamp with time zone DEFAULT NULL::timestamp with time zone, p_old_nsset_missing boolean DEFAULT NULL::boolean, p_old_linked boolean DEFAULT NULL::boolean)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
DECLARE
    v_at timestamptz;
BEGIN
    IF p_id IS NULL OR current_setting('registry.state_marks', true) = 'off' THEN
        RETURN;
    END IF;
    -- A link added to an object that is linked already (the common case: a domain's nsset changed
    -- to another nsset, an admin contact added who is linked elsewhere): its "linked" row, held FOR
    -- KEY SHARE by this transaction since the statement, taken again; nothing changes for it, so
    -- neither the clock nor the engine's lock is needed.
    IF p_link = 2 AND console.state_link_kept(p_id) THEN
        RETURN;
    END IF;
    v_at := console.state_clock();
    IF NOT console.state_engine_open(p_id, v_at) THEN
        RETURN;
    END IF;
    -- A contact, nsset or keyset that lost a link but is still linked (the common case: most are
    -- linked many times) keeps every state. Its "linked" row locked first, so a link being added
    -- elsewhere is either committed (and seen) or waits for this transaction.
    IF p_link = 1 THEN
        PERFORM 1 FROM object_state os WHERE os.object_id = p_id AND os.state_id = 16 AND os.valid_to IS NULL FOR UPDATE;
        IF FOUND AND NOT EXISTS (SELECT 1 FROM console.state_pending sp WHERE sp.object_id = p_id)
           AND (SELECT il.linked FROM object_registry o CROSS JOIN LATERAL console.is_linked(o.id, o.type) il WHERE o.id = p_id) THEN
            RETURN;
        END IF;
    END IF;
    -- Something may change: the general work, in its own function so that a backend compiles and
    -- plans it only when it is needed (a new connection of FRED's that only adds links to linked
    -- objects or removes links from still-linked ones never does: issue 40, bench:fred with -C).
    PERFORM console.state_changed_apply(p_id, p_link, v_at, p_old_exdate, p_old_updated, p_old_nsset_missing, p_old_linked);
END
$function$;
