CREATE OR REPLACE VIEW console.effective_requests AS
 SELECT r.object_id,
    r.state_id,
    o.type AS object_type,
    (o.crdate AT TIME ZONE 'UTC'::text) AS crdate,
    (o.erdate AT TIME ZONE 'UTC'::text) AS erdate,
    tstzrange((r.valid_from AT TIME ZONE 'UTC'::text), (NULLIF(LEAST(COALESCE(r.canceled, 'infinity'::timestamp without time zone), COALESCE(r.valid_to, 'infinity'::timestamp without time zone)), 'infinity'::timestamp without time zone) AT TIME ZONE 'UTC'::text), '[)'::text) AS period
   FROM object_state_request r
     JOIN object_registry o ON o.id = r.object_id
     JOIN enum_object_states s ON s.id = r.state_id AND s.manual AND (o.type = ANY (s.types))
  WHERE LEAST(COALESCE(r.canceled, 'infinity'::timestamp without time zone), COALESCE(r.valid_to, 'infinity'::timestamp without time zone)) > r.valid_from;
