CREATE OR REPLACE FUNCTION console.change_needs_approval(p_state text, p_change text, p_case_kind text)
 RETURNS boolean
 LANGUAGE sql
 STABLE
AS $function$
SELECT EXISTS (
    SELECT FROM console.approval_rules r
     WHERE (r.state IS NULL OR r.state = p_state)
       AND (r.change IS NULL OR r.change = p_change)
       AND (r.case_kind IS NULL OR r.case_kind = p_case_kind))
$function$;
