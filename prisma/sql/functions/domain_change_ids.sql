CREATE OR REPLACE FUNCTION console.domain_change_ids(p_op text, p_old_id integer, p_new_id integer, p_exdate_changed boolean, p_old_nsset integer, p_new_nsset integer, p_old_registrant integer, p_new_registrant integer, p_old_keyset integer, p_new_keyset integer, OUT ids integer[], OUT links smallint[])
 RETURNS record
 LANGUAGE plpgsql
 IMMUTABLE
AS $function$
BEGIN
    ids := '{}';
    links := '{}';
    -- The domain's own rules read its nsset only as there or not (nssetMissing).
    IF p_op <> 'UPDATE' OR p_exdate_changed OR (p_old_nsset IS NULL) <> (p_new_nsset IS NULL)
       OR p_old_id IS DISTINCT FROM p_new_id THEN
        ids := ids || coalesce(p_new_id, p_old_id); links := links || 0::smallint;
        IF p_op = 'UPDATE' AND p_old_id <> p_new_id THEN ids := ids || p_old_id; links := links || 0::smallint; END IF;
    END IF;
    IF p_old_registrant IS DISTINCT FROM p_new_registrant THEN
        IF p_old_registrant IS NOT NULL THEN ids := ids || p_old_registrant; links := links || 1::smallint; END IF;
        IF p_new_registrant IS NOT NULL THEN ids := ids || p_new_registrant; links := links || 2::smallint; END IF;
    END IF;
    IF p_old_nsset IS DISTINCT FROM p_new_nsset THEN
        IF p_old_nsset IS NOT NULL THEN ids := ids || p_old_nsset; links := links || 1::smallint; END IF;
        IF p_new_nsset IS NOT NULL THEN ids := ids || p_new_nsset; links := links || 2::smallint; END IF;
    END IF;
    IF p_old_keyset IS DISTINCT FROM p_new_keyset THEN
        IF p_old_keyset IS NOT NULL THEN ids := ids || p_old_keyset; links := links || 1::smallint; END IF;
        IF p_new_keyset IS NOT NULL THEN ids := ids || p_new_keyset; links := links || 2::smallint; END IF;
    END IF;
    IF cardinality(ids) > 1 THEN
        -- In id order, each id once (the domain itself before a lost link before a new one).
        SELECT array_agg(x.id ORDER BY x.id), array_agg(x.l ORDER BY x.id) INTO ids, links
          FROM (SELECT u.id, min(u.l) AS l FROM unnest(ids, links) AS u (id, l) GROUP BY u.id) x;
    END IF;
END
$function$;
