-- Follow-through, part two (issue 18, decision 0039): reminders the server
-- sends on its own schedule, each at most once per stage, subject and person,
-- whichever instance runs it; when a started topic last saw activity; and the
-- indexes the reminder scans and the administrators' follow-up lists use.
--
-- Like 0009 says: the notification kinds added there are not used in SQL here.

-- One row per reminder sent: (stage, subject, person) is sent once. The stage
-- is the notification kind; the subject the application (reminder_answer,
-- application_waiting) or the topic (the rest). notification_id is the latest
-- notification sent for it: the first, or the one sent again after a snooze
-- (snooze_resent_at set), which cannot be put off again.
CREATE TABLE reminders_sent (
  stage            text NOT NULL,
  subject_id       uuid NOT NULL,
  user_id          uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  notification_id  uuid REFERENCES notifications (id) ON DELETE SET NULL,
  sent_at          timestamptz NOT NULL,
  snooze_resent_at timestamptz,
  PRIMARY KEY (stage, subject_id, user_id)
);
CREATE INDEX reminders_sent_notification_id_idx ON reminders_sent (notification_id);

-- Activity on a topic: starting it, its mentor editing it, a check-in answered
-- "Going well". Kept by the routes where that happens (the start by the
-- trigger below, with started_at).
ALTER TABLE topics ADD COLUMN last_activity_at timestamptz;
UPDATE topics SET last_activity_at = coalesce(started_at, updated_at);
ALTER TABLE topics ALTER COLUMN last_activity_at SET NOT NULL;

-- A new topic's activity is its creation; rows inserted already started (seeds,
-- imports) count from their start unless they give it.
CREATE OR REPLACE FUNCTION topics_stamp_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.submitted_at := coalesce(NEW.submitted_at, NEW.created_at);
  IF NEW.status <> 'proposed' THEN NEW.reviewed_at := coalesce(NEW.reviewed_at, NEW.updated_at); END IF;
  IF NEW.status IN ('started', 'concluded') THEN NEW.started_at := coalesce(NEW.started_at, NEW.updated_at); END IF;
  IF NEW.status = 'concluded' THEN NEW.concluded_at := coalesce(NEW.concluded_at, NEW.updated_at); END IF;
  NEW.last_activity_at := coalesce(NEW.last_activity_at, NEW.started_at, NEW.updated_at);
  RETURN NEW;
END $$;

CREATE OR REPLACE FUNCTION topics_stamp_times() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status IS DISTINCT FROM OLD.status THEN
    CASE NEW.status
      WHEN 'proposed' THEN
        NEW.submitted_at := now();
        NEW.reviewed_at := NULL;
      WHEN 'approved', 'rejected' THEN
        IF OLD.status = 'proposed' THEN NEW.reviewed_at := now(); END IF;
      WHEN 'started' THEN
        NEW.started_at := now();
        NEW.last_activity_at := now();
      WHEN 'concluded' THEN
        NEW.concluded_at := now();
    END CASE;
  END IF;
  RETURN NEW;
END $$;

-- last_activity_at is not part of a topic as the API answers it: a check-in
-- answered moves it without a new sync version (and a poke to every device).
CREATE FUNCTION sync_stamp_topic() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  probe topics;
BEGIN
  probe := NEW;
  probe.last_activity_at := OLD.last_activity_at;
  IF probe IS NOT DISTINCT FROM OLD THEN
    RETURN NEW;
  END IF;
  NEW.version := nextval('sync_version');
  NEW.sync_xid := pg_current_xact_id();
  RETURN NEW;
END $$;
DROP TRIGGER topics_sync_stamp ON topics;
CREATE TRIGGER topics_sync_stamp BEFORE UPDATE ON topics
  FOR EACH ROW EXECUTE FUNCTION sync_stamp_topic();

-- The scans: pending applications by age, approved topics (reminder_start),
-- started topics by start and by quiet, concluded topics by conclusion.
CREATE INDEX applications_pending_created_idx ON applications (created_at)
  WHERE status = 'pending';
CREATE INDEX topics_started_activity_idx ON topics (last_activity_at) WHERE status = 'started';
CREATE INDEX topics_started_at_idx ON topics (started_at) WHERE status = 'started';
CREATE INDEX topics_concluded_at_idx ON topics (concluded_at) WHERE status = 'concluded';
