CREATE OR REPLACE FUNCTION console.domain_change_ids(p_op text, p_old_id integer, p_new_id integer, p_exdate_changed boolean, p_old_nsset integer, p_new_nsset integer, p_old_registrant integer, p_new_registrant integer, p_old_keyset integer, p_new_keyset integer, OUT ids integer[], OUT links smallint[])
 RETURNS record
 LANGUAGE plpgsql
 IMMUTABLE
AS $function$
DECLARE
    v_ids integer[] := '{}';
    v_links smallint[] := '{}';
    i integer;
    j integer;
BEGIN
    -- The domain's own rules read its nsset only as there or not (nssetMissing).
    IF p_op <> 'UPDATE' OR p_exdate_changed OR (p_old_nsset IS NULL) <> (p_new_nsset IS NULL)
       OR p_old_id IS DISTINCT FROM p_new_id THEN
        v_ids := v_ids || coalesce(p_new_id, p_old_id); v_links := v_links || 0::smallint;
        IF p_op = 'UPDATE' AND p_old_id <> p_new_id THEN v_ids := v_ids || p_old_id; v_links := v_links || 0::smallint; END IF;
    END IF;
    IF p_old_registrant IS DISTINCT FROM p_new_registrant THEN
        IF p_old_registrant IS NOT NULL THEN v_ids := v_ids || p_old_registrant; v_links := v_links || 1::smallint; END IF;
        IF p_new_registrant IS NOT NULL THEN v_ids := v_ids || p_new_registrant; v_links := v_links || 2::smallint; END IF;
    END IF;
    IF p_old_nsset IS DISTINCT FROM p_new_nsset THEN
        IF p_old_nsset IS NOT NULL THEN v_ids := v_ids || p_old_nsset; v_links := v_links || 1::smallint; END IF;
        IF p_new_nsset IS NOT NULL THEN v_ids := v_ids || p_new_nsset; v_links := v_links || 2::smallint; END IF;
    END IF;
    IF p_old_keyset IS DISTINCT FROM p_new_keyset THEN
        IF p_old_keyset IS NOT NULL THEN v_ids := v_ids || p_old_keyset; v_links := v_links || 1::smallint; END IF;
        IF p_new_keyset IS NOT NULL THEN v_ids := v_ids || p_new_keyset; v_links := v_links || 2::smallint; END IF;
    END IF;
    -- In id order, each id once with its smallest link (the domain itself before a lost link before
    -- a new one): an insertion into the ordered result, at most seven ids.
    ids := '{}';
    links := '{}';
    FOR i IN 1 .. cardinality(v_ids) LOOP
        j := array_position(ids, v_ids[i]);
        IF j IS NOT NULL THEN
            links[j] := least(links[j], v_links[i]);
            CONTINUE;
        END IF;
        j := 1;
        WHILE j <= cardinality(ids) AND ids[j] < v_ids[i] LOOP
            j := j + 1;
        END LOOP;
        ids := ids[1:j - 1] || v_ids[i] || ids[j:];
        links := links[1:j - 1] || v_links[i] || links[j:];
    END LOOP;
END
$function$;
