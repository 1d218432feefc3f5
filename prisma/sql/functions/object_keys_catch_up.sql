CREATE OR REPLACE FUNCTION console.object_keys_catch_up(p_sweep boolean DEFAULT false)
 RETURNS integer
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'pg_temp'
AS $function$
DECLARE
    v_cursor console.object_key_cursor;
    v_new integer;
    v_gone integer := 0;
    v_high integer;
BEGIN
    SELECT * INTO v_cursor FROM console.object_key_cursor FOR UPDATE;
    IF NOT FOUND THEN
        INSERT INTO console.object_key_cursor DEFAULT VALUES RETURNING * INTO v_cursor;
    END IF;
    p_sweep := p_sweep OR v_cursor.swept_at IS NULL OR v_cursor.swept_at < now() - interval '1 hour';
    IF p_sweep THEN
        INSERT INTO console.object_key (id, type, name, crdate, erdate)
        SELECT r.id, r.type, r.name, r.crdate, r.erdate FROM public.object_registry r
         WHERE NOT EXISTS (SELECT FROM console.object_key k WHERE k.id = r.id);
        GET DIAGNOSTICS v_new = ROW_COUNT;
        UPDATE console.object_key k SET erdate = r.erdate FROM public.object_registry r
         WHERE r.id = k.id AND k.erdate IS DISTINCT FROM r.erdate;
        GET DIAGNOSTICS v_gone = ROW_COUNT;
        DELETE FROM console.object_key k WHERE NOT EXISTS (SELECT FROM public.object_registry r WHERE r.id = k.id);
        v_cursor.swept_at := now();
    ELSE
        INSERT INTO console.object_key (id, type, name, crdate, erdate)
        SELECT r.id, r.type, r.name, r.crdate, r.erdate FROM public.object_registry r
         WHERE r.id > v_cursor.low
        ON CONFLICT (id) DO NOTHING;
        GET DIAGNOSTICS v_new = ROW_COUNT;
    END IF;
    IF v_cursor.high_at IS NULL OR v_cursor.high_at < now() - interval '5 minutes' THEN
        SELECT coalesce(max(id), 0) INTO v_high FROM public.object_registry;
        UPDATE console.object_key_cursor
           SET low = v_cursor.high, high = v_high, high_at = now(), swept_at = v_cursor.swept_at, checked_at = now();
    ELSE
        UPDATE console.object_key_cursor SET swept_at = v_cursor.swept_at, checked_at = now();
    END IF;
    RETURN v_new + v_gone;
END
$function$;
