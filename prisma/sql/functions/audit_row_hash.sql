CREATE OR REPLACE FUNCTION console.audit_row_hash(prev_hash text, r console.audit_log)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE
AS $function$
    SELECT encode(sha256(convert_to(
        concat_ws(E'\x1f', prev_hash, r.id::text,
                  to_char(r.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
                  coalesce(r.actor, ''), coalesce(r.actor_id::text, ''), coalesce(r.role, ''),
                  coalesce(r.session_id::text, ''), coalesce(r.client_address, ''), r.action,
                  r.object_ids::text, r.input::text, r.result, coalesce(r.error_code, '')),
        'UTF8')), 'hex')
$function$;
