-- Accounts of the registry's LDAP directory (lib/auth/ldap.ts): the person's DN when the console
-- user was made or last confirmed by a directory sign-in. Such a user has no console password; the
-- role is the one the directory's groups gave at the last sign-in.
ALTER TABLE console.users ADD COLUMN directory_dn text;
CREATE UNIQUE INDEX users_directory_dn_key ON console.users (directory_dn);
GRANT UPDATE (directory_dn) ON console.users TO console_app;
