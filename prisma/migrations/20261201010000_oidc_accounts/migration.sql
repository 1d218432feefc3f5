-- People the identity provider vouches for (OpenID Connect with OIDC_ROLE_CLAIM, lib/auth/oidc.ts):
-- the console links an existing user to their subject at their first single sign-on.
GRANT UPDATE (oidc_subject) ON console.users TO console_app;
