-- No account taken by name (issue 39, README "Single sign-on" and "Signing in through the
-- registry's directory"). A single sign-on identity is the provider's issuer and subject: the
-- issuer is kept beside the subject (rows linked before have none; their next sign-in through the
-- configured issuer records it). An existing console account whose user name a provider's person
-- or a directory entry also has is linked to them only when an administrator allowed it, on the
-- Users page: link_allowed_until, cleared by the sign-in that links.
ALTER TABLE console.users ADD COLUMN oidc_issuer text;
ALTER TABLE console.users ADD COLUMN link_allowed_until timestamptz;
GRANT UPDATE (oidc_issuer, link_allowed_until) ON console.users TO console_app;
