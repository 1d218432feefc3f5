CREATE OR REPLACE FUNCTION console.lifecycle_periods_stored()
 RETURNS TABLE(valid_from date, valid_until date, notify interval, dns interval, registration interval, validation1 interval, validation2 interval, letter interval, outzone_warning interval)
 LANGUAGE sql
 STABLE PARALLEL SAFE
AS $function$
    SELECT CASE WHEN row_number() OVER w = 1 THEN '-infinity'::date ELSE console.first_date_from(l.valid_for_exdate_after) END,
           coalesce(console.first_date_from(lead(l.valid_for_exdate_after) OVER w), 'infinity'::date),
           l.expiration_notify_period, l.expiration_dns_protection_period, l.expiration_registration_protection_period,
           l.validation_notify1_period, l.validation_notify2_period, l.expiration_letter_warning_period,
           l.outzone_unguarded_email_warning_period
      FROM domain_lifecycle_parameters l
    WINDOW w AS (ORDER BY l.valid_for_exdate_after)
$function$;
