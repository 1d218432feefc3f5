CREATE OR REPLACE FUNCTION console.lifecycle_periods()
 RETURNS TABLE(valid_from date, valid_until date, notify interval, dns interval, registration interval, validation1 interval, validation2 interval, letter interval, outzone_warning interval)
 LANGUAGE sql
 STABLE PARALLEL SAFE
AS $function$
            SELECT * FROM (VALUES ('-infinity'::date, 'infinity'::date, '-30 days'::interval, '30 days'::interval, '61 days'::interval, '-30 days'::interval, '-15 days'::interval, '34 days'::interval, '25 days'::interval)) AS l (valid_from, valid_until, notify, dns, registration, validation1, validation2, letter, outzone_warning)
             WHERE true
        $function$;
