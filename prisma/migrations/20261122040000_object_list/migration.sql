-- The object list (/objects): its sort orders and name searches read a page without visiting every
-- object. Names sort case-insensitively, so handles (upper case) and domain names interleave.
CREATE INDEX object_registry_live_lower_name_idx ON object_registry (lower(name), id) WHERE erdate IS NULL;
CREATE INDEX object_registry_live_type_lower_name_idx ON object_registry (type, lower(name), id) WHERE erdate IS NULL;
-- By creation time; with a type filter object_registry_type_crdate_idx (type, crdate, id) serves.
CREATE INDEX object_registry_live_crdate_idx ON object_registry (crdate, id) WHERE erdate IS NULL;

-- Name search is case-insensitive, by prefix or substring: trigrams of the lower-cased name.
CREATE INDEX object_registry_name_trgm_idx ON object_registry USING gin (lower(name) gin_trgm_ops);

-- Domains by expiration, ties in id order (the list's keyset).
CREATE INDEX domain_exdate_id_idx ON domain (exdate, id);
DROP INDEX domain_exdate_idx;
