-- Fixed-window request counters for the sign-in endpoints, shared by every
-- server instance. A bucket is "<limit name>:<client address>".
CREATE TABLE rate_limits (
  bucket       text PRIMARY KEY,
  window_start timestamptz NOT NULL,
  hits         integer NOT NULL CHECK (hits > 0)
);
CREATE INDEX rate_limits_window_start_idx ON rate_limits (window_start);
