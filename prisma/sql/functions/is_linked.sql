CREATE OR REPLACE FUNCTION console.is_linked(p_id integer, p_type integer)
 RETURNS TABLE(linked boolean)
 LANGUAGE sql
 STABLE PARALLEL SAFE
AS $function$
    SELECT CASE p_type
           WHEN 1 THEN EXISTS (SELECT 1 FROM domain d WHERE d.registrant = p_id)
                    OR EXISTS (SELECT 1 FROM domain_contact_map m WHERE m.contactid = p_id)
                    OR EXISTS (SELECT 1 FROM nsset_contact_map m WHERE m.contactid = p_id)
                    OR EXISTS (SELECT 1 FROM keyset_contact_map m WHERE m.contactid = p_id)
           WHEN 2 THEN EXISTS (SELECT 1 FROM domain d WHERE d.nsset = p_id)
           WHEN 4 THEN EXISTS (SELECT 1 FROM domain d WHERE d.keyset = p_id)
           ELSE false END
$function$;
