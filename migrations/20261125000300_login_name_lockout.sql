-- Sign-in failures count per submitted name, whether an account has it or not (no
-- password oracle: a locked name answers 10006 before any password is checked).
-- `name_key` is the UUIDv5 of the trimmed, lower-cased name (the account stream's id when
-- the name is a username); `login_lockouts.account_id` now holds such a key.
ALTER TABLE login_attempts ADD COLUMN name_key UUID;
CREATE INDEX login_attempts_name_key ON login_attempts (name_key, at) WHERE name_key IS NOT NULL;
COMMENT ON COLUMN login_lockouts.account_id IS
    'the locked sign-in name''s key: UUIDv5 of the trimmed, lower-cased name (an account id for a username)';
