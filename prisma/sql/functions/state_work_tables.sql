CREATE OR REPLACE FUNCTION console.state_work_tables()
 RETURNS void
 LANGUAGE plpgsql
 SET client_min_messages TO 'warning'
AS $function$
BEGIN
    CREATE TEMP TABLE IF NOT EXISTS state_work (object_id integer PRIMARY KEY, w timestamptz NOT NULL);
    CREATE TEMP TABLE IF NOT EXISTS state_desired (
        object_id integer NOT NULL, state_id integer NOT NULL, lo timestamptz NOT NULL, hi timestamptz, w timestamptz NOT NULL
    );
    CREATE INDEX IF NOT EXISTS state_desired_key ON pg_temp.state_desired (object_id, state_id);
    TRUNCATE pg_temp.state_work, pg_temp.state_desired;
END
$function$;
