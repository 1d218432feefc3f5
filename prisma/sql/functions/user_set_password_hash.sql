CREATE OR REPLACE FUNCTION console.user_set_password_hash(p_user_id integer, p_password_hash text, p_expected text DEFAULT NULL::text)
 RETURNS boolean
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
AS $function$
BEGIN
    IF p_password_hash IS NULL OR p_password_hash !~ '^(rsc2:)?\$2[aby]\$[0-9]{2}\$[./A-Za-z0-9]{53}$' THEN
        RAISE EXCEPTION 'console.user_set_password_hash: the hash must be a bcrypt hash'
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    UPDATE console.users SET password_hash = p_password_hash
     WHERE id = p_user_id AND (p_expected IS NULL OR password_hash = p_expected);
    RETURN FOUND;
END
$function$;
