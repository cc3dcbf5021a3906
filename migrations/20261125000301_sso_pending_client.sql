-- Pending single sign-ins remember who started them, so one client can hold only a few
-- (it cannot fill the global cap and block staff sign-in). The client is its IP address,
-- an IPv6 address by its /64 network.
ALTER TABLE sso_pending ADD COLUMN client TEXT;
CREATE INDEX sso_pending_client ON sso_pending (client, created_at) WHERE client IS NOT NULL;
