-- How each session was opened (docs/identity.md): 'password' (username), 'easy_clear_id' (a
-- customer signed in with the Easy-clear ID they bound, in place of the username), 'sso'
-- (staff single sign-on) or 'test' (the development test login). `GET /api/v1/session`
-- answers `easyClearIdLogin` from it. Sessions opened before this migration have none.
ALTER TABLE auth_sessions
    ADD COLUMN login_method TEXT
        CHECK (login_method IN ('password', 'easy_clear_id', 'sso', 'test'));
