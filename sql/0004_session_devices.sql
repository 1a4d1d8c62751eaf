-- Sessions as devices a person can see and end (ASVS 3.3.4): a public id that
-- is not the token's hash, and the browser that signed in.
ALTER TABLE sessions
  ADD COLUMN public_id uuid NOT NULL DEFAULT gen_random_uuid(),
  ADD COLUMN user_agent text CHECK (length(user_agent) <= 512);
CREATE UNIQUE INDEX sessions_public_id_key ON sessions (public_id);
