CREATE OR REPLACE VIEW console.object_blocks AS
 SELECT r.id AS request_id,
    b.id AS block_id,
    r.object_id,
    COALESCE(b.made_by, 'fred'::text) AS made_by,
    b.created_by,
    r.crdate,
    r.valid_from,
    r.valid_to,
    r.canceled,
    console.request_period(r.valid_from, r.valid_to, r.canceled) AS period,
    b.unblocked_at,
    b.unblocked_by,
    rr.reason_creation AS reason,
    rr.reason_cancellation,
    COALESCE(
        CASE
            WHEN b.id IS NOT NULL THEN cm.request_ids
            ELSE fm.request_ids
        END, '{}'::integer[]) AS request_ids,
    COALESCE(
        CASE
            WHEN b.id IS NOT NULL THEN cm.prohibitions
            ELSE fm.prohibitions
        END, '{}'::character varying[]) AS prohibitions
   FROM object_state_request r
     JOIN enum_object_states s ON s.id = r.state_id AND s.name::text = 'serverBlocked'::text
     LEFT JOIN console.blocks b ON b.blocked_request_id = r.id
     LEFT JOIN object_state_request_reason rr ON rr.object_state_request_id = r.id
     CROSS JOIN LATERAL ( SELECT array_agg(x.id ORDER BY x.state_id, x.id) AS request_ids,
            array_agg(xs.name ORDER BY x.state_id, x.id) AS prohibitions
           FROM console.request_meta xm
             JOIN object_state_request x ON x.id = xm.request_id
             JOIN enum_object_states xs ON xs.id = x.state_id
          WHERE xm.block_id = b.id AND x.object_id = r.object_id AND x.id <> r.id) cm
     CROSS JOIN LATERAL ( SELECT array_agg(x.id ORDER BY x.state_id, x.id) AS request_ids,
            array_agg(xs.name ORDER BY x.state_id, x.id) AS prohibitions
           FROM object_state_request x
             JOIN enum_object_states xs ON xs.id = x.state_id
          WHERE b.id IS NULL AND x.object_id = r.object_id AND x.crdate = r.crdate AND x.id <> r.id AND xs.manual AND xs.name::text ~~ 'server%'::text AND xs.name::text <> 'serverBlocked'::text AND x.valid_from = r.valid_from AND NOT x.valid_to IS DISTINCT FROM r.valid_to AND NOT (EXISTS ( SELECT
                   FROM console.request_meta xm
                  WHERE xm.request_id = x.id AND xm.block_id IS NOT NULL))) fm;
