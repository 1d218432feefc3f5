-- The object list's walk in name order reads its rows from this index alone (an index-only scan):
-- it carries what the list's inner query selects (name, type, crdate). A name search that walks
-- the name order ("contains" a frequent word) then tests each name in the index instead of
-- fetching every passed-over row from the table: 51,537 names passed for "praha" at 1.5 million
-- domains, 51 ms with the old index, 6-9 ms with this one.
DROP INDEX console_object_registry_live_lower_name_idx;
CREATE INDEX console_object_registry_live_lower_name_idx ON object_registry (lower(name), id) INCLUDE (name, type, crdate)
    WHERE erdate IS NULL;
