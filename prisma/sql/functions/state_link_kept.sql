CREATE OR REPLACE FUNCTION console.state_link_kept(p_id integer)
 RETURNS boolean
 LANGUAGE plpgsql
AS $function$
BEGIN
    PERFORM 1 FROM object_state os WHERE os.object_id = p_id AND os.state_id = 16 AND os.valid_to IS NULL
        FOR KEY SHARE SKIP LOCKED;
    RETURN FOUND;
END
$function$;
