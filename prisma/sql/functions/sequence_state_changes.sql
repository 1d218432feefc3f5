CREATE OR REPLACE FUNCTION console.sequence_state_changes()
 RETURNS bigint
 LANGUAGE plpgsql
AS $function$
DECLARE
    v_count bigint;
BEGIN
    PERFORM pg_advisory_xact_lock(hashtext('console.state_changes.seq'));
    WITH pending AS (
        SELECT c.id, row_number() OVER (ORDER BY c.id) AS n
          FROM console.state_changes c WHERE c.seq IS NULL
    ), top AS (SELECT coalesce(max(seq), 0) AS seq FROM console.state_changes)
    UPDATE console.state_changes c SET seq = top.seq + p.n FROM pending p, top WHERE c.id = p.id;
    GET DIAGNOSTICS v_count = ROW_COUNT;
    RETURN v_count;
END $function$;
