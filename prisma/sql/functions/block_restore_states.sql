CREATE OR REPLACE FUNCTION console.block_restore_states(p_object_id integer, p_at timestamp without time zone)
 RETURNS TABLE(state_id integer)
 LANGUAGE sql
 STABLE
AS $function$
    WITH blocked AS (
        SELECT os.valid_from, os.valid_to,
               coalesce(lag(os.valid_to) OVER (ORDER BY os.valid_from) = os.valid_from, false) AS follow_up
          FROM object_state os JOIN enum_object_states s ON s.id = os.state_id AND s.name = 'serverBlocked'
         WHERE os.object_id = p_object_id
    ),
    current_row AS (SELECT max(valid_from) AS valid_from FROM blocked WHERE valid_to IS NULL OR p_at <= valid_to),
    sequence_start AS (
        SELECT max(b.valid_from) AS valid_from FROM blocked b, current_row c WHERE b.valid_from <= c.valid_from AND NOT b.follow_up
    )
    SELECT DISTINCT os.state_id
      FROM sequence_start q
      JOIN object_state os ON os.object_id = p_object_id AND os.valid_from < q.valid_from
                          AND (os.valid_to IS NULL OR q.valid_from <= os.valid_to)
      JOIN enum_object_states s ON s.id = os.state_id
     WHERE s.manual AND s.name LIKE 'server%'
     ORDER BY os.state_id
$function$;
