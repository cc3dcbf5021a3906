-- Sign-in locks per submitted name AND client address (issue 22, low 12): a name locked by
-- failures from one address stays open from every other, so nobody can lock a known name
-- out from afar. A lock of the name from every address (`address = '*'`) remains, after
-- many failures from many addresses, and spares the addresses the name signed in from
-- before (docs/identity.md, "Lockout").
ALTER TABLE login_lockouts RENAME COLUMN account_id TO name_key;
COMMENT ON COLUMN login_lockouts.name_key IS
    'the locked sign-in name''s key: UUIDv5 of the trimmed, lower-cased name (an account id for a username)';
ALTER TABLE login_lockouts ADD COLUMN address TEXT NOT NULL DEFAULT '*';
ALTER TABLE login_lockouts ALTER COLUMN address DROP DEFAULT;
COMMENT ON COLUMN login_lockouts.address IS
    'the client network the lock holds for (an IPv4 address or an IPv6 /64), or * for every address';
ALTER TABLE login_lockouts DROP CONSTRAINT login_lockouts_pkey;
ALTER TABLE login_lockouts ADD PRIMARY KEY (name_key, address);

-- The client network of an attempt (an IPv4 address or an IPv6 /64; `ip` keeps the address).
ALTER TABLE login_attempts ADD COLUMN address TEXT;
CREATE INDEX login_attempts_name_address ON login_attempts (name_key, address, at)
    WHERE name_key IS NOT NULL;
