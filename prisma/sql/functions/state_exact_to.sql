CREATE OR REPLACE FUNCTION console.state_exact_to(p_id integer)
 RETURNS timestamp with time zone
 LANGUAGE plpgsql
 STABLE
AS $function$
DECLARE
    v_exact timestamptz;
BEGIN
    SELECT greatest(e.cursor, ne.exact_to) INTO v_exact
      FROM console.state_engine e LEFT JOIN console.state_next_event ne ON ne.object_id = p_id;
    RETURN coalesce(v_exact, '-infinity');
END
$function$;
