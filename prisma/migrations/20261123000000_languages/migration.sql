-- Each console user's language (issue 10). NULL: not chosen yet; the browser's language decides.
-- The console's languages are English and Czech; the registry's state descriptions
-- (enum_object_states_desc) carry the same two, as 'EN' and 'CS'.
ALTER TABLE console.users ADD COLUMN locale text CONSTRAINT users_locale_check CHECK (locale IN ('en', 'cs'));
