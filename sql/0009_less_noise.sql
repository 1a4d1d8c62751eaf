-- Follow-through, part one (issue 18, decision 0038): the reminder kinds of
-- notification, what a notification now carries (its topic, a snooze, a
-- check-in's answer), the per-person delivery preferences (e-mail as it
-- happens or in a daily digest, time zone, quiet hours), and what the
-- delivery queue needs to keep the daily noise budget and send digests.
--
-- The runner applies every file in one transaction: the new enum values
-- cannot be used until it commits, so nothing below (nor later files) uses them.
ALTER TYPE notification_kind ADD VALUE IF NOT EXISTS 'reminder_answer';
ALTER TYPE notification_kind ADD VALUE IF NOT EXISTS 'application_waiting';
ALTER TYPE notification_kind ADD VALUE IF NOT EXISTS 'reminder_start';
ALTER TYPE notification_kind ADD VALUE IF NOT EXISTS 'reminder_conclude';
ALTER TYPE notification_kind ADD VALUE IF NOT EXISTS 'reminder_feedback';
ALTER TYPE notification_kind ADD VALUE IF NOT EXISTS 'check_in';

-- Notifications -----------------------------------------------------------------

ALTER TABLE notifications
  -- The topic it is about: pushes about one topic replace each other on a device.
  ADD COLUMN topic_id      uuid REFERENCES topics (id) ON DELETE SET NULL,
  -- "Remind me tomorrow": set once, the reminder comes again then.
  ADD COLUMN snoozed_until timestamptz,
  -- A check-in's answer.
  ADD COLUMN response      text CHECK (response IN ('going_well', 'need_help')),
  ADD COLUMN responded_at  timestamptz,
  -- E-mail in the daily digest: waiting for it (digest_state = 'waiting'), or
  -- sent in one (digest_state = 'sent'); null when it goes (or went) on its own.
  ADD COLUMN digest_state  text CHECK (digest_state IN ('waiting', 'sent'));
CREATE INDEX notifications_topic_id_idx ON notifications (topic_id);
CREATE INDEX notifications_digest_waiting_idx ON notifications (user_id, created_at)
  WHERE digest_state = 'waiting';

-- Preferences -------------------------------------------------------------------

ALTER TABLE notification_preferences
  ADD COLUMN reminders      boolean NOT NULL DEFAULT true,
  -- {category: 'immediate' | 'digest'}; a category left out has its default (shared/preferences.ts).
  ADD COLUMN email_delivery jsonb NOT NULL DEFAULT '{}'::jsonb,
  ADD COLUMN time_zone      text,
  ADD COLUMN digest_hour    smallint NOT NULL DEFAULT 8 CHECK (digest_hour BETWEEN 0 AND 23),
  ADD COLUMN quiet_enabled  boolean NOT NULL DEFAULT true,
  ADD COLUMN quiet_from     smallint NOT NULL DEFAULT 20 CHECK (quiet_from BETWEEN 0 AND 23),
  ADD COLUMN quiet_to       smallint NOT NULL DEFAULT 8 CHECK (quiet_to BETWEEN 0 AND 23),
  ADD COLUMN quiet_weekends boolean NOT NULL DEFAULT true;

-- Delivery ----------------------------------------------------------------------

-- A digest e-mail is a delivery job of its own kind.
ALTER TABLE delivery_jobs DROP CONSTRAINT delivery_jobs_kind_check;
ALTER TABLE delivery_jobs ADD CONSTRAINT delivery_jobs_kind_check
  CHECK (kind IN ('push', 'email', 'digest'));
-- Until when quiet hours or the e-mail delay held a job back: a push's time to
-- live counts from then, not from when it was queued.
ALTER TABLE delivery_jobs ADD COLUMN held_until timestamptz;

-- What went out to a person on a local day outside decisions, for the daily
-- budget (at most one e-mail and three pushes): one row per e-mail or digest,
-- one per notification pushed (to however many devices). Claimed under a
-- per-person advisory lock, so concurrent workers never exceed it.
CREATE TABLE delivery_budget (
  user_id         uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  local_date      date NOT NULL,
  channel         text NOT NULL CHECK (channel IN ('email', 'push')),
  notification_id uuid NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, local_date, channel, notification_id)
);
