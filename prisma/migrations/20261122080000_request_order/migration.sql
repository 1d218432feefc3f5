-- Issue 8 (registry scale): /requests lists all requests newest start first, keyset-paged on
-- (valid_from, id). Without an index on that order every page sorted all requests (180,000 at
-- 1.5 million domains: 100 ms a page); with it a page is an index walk (about 1 ms).
CREATE INDEX object_state_request_valid_from_id_idx ON object_state_request (valid_from, id);
