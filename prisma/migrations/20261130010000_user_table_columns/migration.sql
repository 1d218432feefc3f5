-- Which columns each person hides in the console's tables (issue 27): kept with the user, so every
-- browser they sign in on shows the same columns. {"objects": {"created": false}, ...}: a table's
-- name, then each hidden column's id with false. The console writes only the signed-in person's
-- own row (lib/users/preferences.ts) and checks the table and column names there; the database
-- bounds the shape and size.
ALTER TABLE console.users
    ADD COLUMN table_columns jsonb NOT NULL DEFAULT '{}'
        CONSTRAINT users_table_columns_check CHECK (jsonb_typeof(table_columns) = 'object' AND pg_column_size(table_columns) <= 2048);

GRANT UPDATE (table_columns) ON console.users TO console_app;
