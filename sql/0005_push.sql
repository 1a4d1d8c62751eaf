-- Push and e-mail delivery (decision 0009): server-wide settings such as the
-- generated VAPID key pair, the devices' push subscriptions, and the durable
-- queue of deliveries that notify() fills in the event's transaction.

CREATE TABLE server_settings (
  name       text PRIMARY KEY,
  value      jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- One row per device. A subscription belongs to the session that registered
-- it: signing out (or the session expiring) stops pushes to that device.
CREATE TABLE push_subscriptions (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id         uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  session_hash    text REFERENCES sessions (id_hash) ON DELETE CASCADE,
  endpoint        text NOT NULL UNIQUE CHECK (length(endpoint) <= 2048),
  p256dh          text NOT NULL CHECK (length(p256dh) <= 128),
  auth            text NOT NULL CHECK (length(auth) <= 64),
  expiration_time timestamptz,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX push_subscriptions_user_id_idx ON push_subscriptions (user_id, updated_at DESC);
CREATE INDEX push_subscriptions_session_hash_idx ON push_subscriptions (session_hash);

-- The delivery queue. A worker claims pending rows that are due and not
-- leased (FOR UPDATE SKIP LOCKED), leases them until locked_until, and marks
-- them done, pending again with a later run_at, or failed.
CREATE TABLE delivery_jobs (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  kind            text NOT NULL CHECK (kind IN ('push', 'email')),
  user_id         uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- Push jobs: one per device, gone with the subscription.
  subscription_id uuid REFERENCES push_subscriptions (id) ON DELETE CASCADE,
  payload         jsonb NOT NULL,
  state           text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'done', 'failed')),
  attempts        integer NOT NULL DEFAULT 0,
  run_at          timestamptz NOT NULL DEFAULT now(),
  locked_until    timestamptz,
  locked_by       uuid,
  last_error      text,
  created_at      timestamptz NOT NULL DEFAULT now(),
  finished_at     timestamptz,
  CONSTRAINT delivery_jobs_push_has_subscription CHECK ((kind = 'push') = (subscription_id IS NOT NULL))
);
CREATE INDEX delivery_jobs_due_idx ON delivery_jobs (run_at, id) WHERE state = 'pending';
CREATE INDEX delivery_jobs_finished_idx ON delivery_jobs (finished_at) WHERE state <> 'pending';
CREATE INDEX delivery_jobs_subscription_id_idx ON delivery_jobs (subscription_id);
