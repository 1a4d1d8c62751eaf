-- Matching (issue 17, decision 0037): profile fields for matching, derived
-- columns kept by a trigger on applications, "Not interested" marks, mentors'
-- invitations to apply, and programme settings (match weights) synced to
-- every user with a log of every change.
--
-- The migration runner applies every file in one transaction. ADD VALUE to an
-- enum is allowed in a transaction block, but the new value cannot be used
-- until the transaction commits: nothing below (nor any later file run in the
-- same transaction) may use 'invitation'.
ALTER TYPE notification_kind ADD VALUE IF NOT EXISTS 'invitation';

-- Users -----------------------------------------------------------------------

ALTER TABLE users
  ADD COLUMN looking_for_mentor  boolean NOT NULL DEFAULT false,
  ADD COLUMN preferred_location  topic_location,
  ADD COLUMN answers_within_days smallint CHECK (answers_within_days > 0),
  ADD COLUMN has_mentor          boolean NOT NULL DEFAULT false;

-- The four new columns the API answers count as a change of the user.
CREATE OR REPLACE FUNCTION sync_stamp_user() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (NEW.username, NEW.full_name, NEW.profile_image, NEW.seniority, NEW.bio, NEW.interests,
      NEW.is_admin, NEW.looking_for_mentor, NEW.preferred_location, NEW.answers_within_days,
      NEW.has_mentor)
     IS NOT DISTINCT FROM
     (OLD.username, OLD.full_name, OLD.profile_image, OLD.seniority, OLD.bio, OLD.interests,
      OLD.is_admin, OLD.looking_for_mentor, OLD.preferred_location, OLD.answers_within_days,
      OLD.has_mentor) THEN
    RETURN NEW;
  END IF;
  NEW.version := nextval('sync_version');
  NEW.sync_xid := pg_current_xact_id();
  RETURN NEW;
END $$;

-- shared/matching.ts answerDaysBucket, in SQL (matching-sql.test.ts compares
-- the two): days = max(1, ceil(hours / 24)), rounded up to the first of
-- 1, 2, 3, 5, 7, 14, 30 days that is at least that; 30 for anything longer.
CREATE FUNCTION answer_days_bucket(median_hours double precision) RETURNS smallint
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN median_hours IS NULL THEN NULL ELSE coalesce(
    (SELECT min(b) FROM unnest('{1,2,3,5,7,14,30}'::smallint[]) AS b
     WHERE b >= greatest(1, ceil(median_hours / 24))),
    30::smallint) END
$$;

-- How quickly a mentor answers: the bucket of the median hours from
-- application to decision over their last 20 decisions; NULL under 3.
CREATE FUNCTION mentor_answers_within_days(mentor uuid) RETURNS smallint
LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN count(*) < 3 THEN NULL ELSE answer_days_bucket(
    percentile_cont(0.5) WITHIN GROUP (ORDER BY hours)) END
  FROM (
    -- Topic by topic through applications_topic_decided_idx: the planner, not
    -- knowing how few topics one mentor has, would otherwise scan every application.
    SELECT extract(epoch FROM a.decided_at - a.created_at) / 3600 AS hours
    FROM topics t CROSS JOIN LATERAL (
      SELECT d.decided_at, d.created_at FROM applications d
      WHERE d.topic_id = t.id AND d.decided_at IS NOT NULL
      ORDER BY d.decided_at DESC LIMIT 20) a
    WHERE t.mentor_id = mentor
    ORDER BY a.decided_at DESC
    LIMIT 20
  ) last_decisions
$$;

CREATE INDEX applications_topic_decided_idx ON applications (topic_id, decided_at DESC)
  WHERE decided_at IS NOT NULL;

-- A decision keeps the derived columns: the mentee has a mentor once accepted,
-- the mentor's answer time moves. Users are written only when a value really
-- changes, so their sync version does not move for nothing.
CREATE FUNCTION applications_matching_derived() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  mentor uuid;
  days smallint;
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.status IS NOT DISTINCT FROM OLD.status THEN
    RETURN NULL;
  END IF;
  IF NEW.status = 'pending' AND TG_OP = 'INSERT' THEN
    RETURN NULL;
  END IF;
  IF NEW.status = 'accepted' THEN
    UPDATE users SET has_mentor = true WHERE id = NEW.mentee_id AND NOT has_mentor;
  END IF;
  SELECT t.mentor_id INTO mentor FROM topics t WHERE t.id = NEW.topic_id;
  IF mentor IS NOT NULL THEN
    days := mentor_answers_within_days(mentor);
    UPDATE users SET answers_within_days = days
    WHERE id = mentor AND answers_within_days IS DISTINCT FROM days;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER applications_matching_derived AFTER INSERT OR UPDATE OF status ON applications
  FOR EACH ROW EXECUTE FUNCTION applications_matching_derived();

-- Both derived columns for every user at once: the backfill below, and bulk
-- loads that disable the trigger (the scale seed).
CREATE FUNCTION refresh_matching_derived() RETURNS void LANGUAGE sql AS $$
  UPDATE users u SET has_mentor = true
  WHERE NOT u.has_mentor
    AND EXISTS (SELECT 1 FROM applications a WHERE a.mentee_id = u.id AND a.status = 'accepted');
  UPDATE users u SET answers_within_days = d.days
  FROM (SELECT m.id, mentor_answers_within_days(m.id) AS days
        FROM users m WHERE EXISTS (SELECT 1 FROM topics t WHERE t.mentor_id = m.id)) d
  WHERE u.id = d.id AND u.answers_within_days IS DISTINCT FROM d.days;
$$;

SELECT refresh_matching_derived();

-- "Not interested" marks ------------------------------------------------------

CREATE TABLE topic_dismissals (
  user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  topic_id   uuid NOT NULL REFERENCES topics (id) ON DELETE CASCADE,
  dismissed  boolean NOT NULL DEFAULT true,
  updated_at timestamptz NOT NULL DEFAULT now(),
  version    bigint NOT NULL DEFAULT nextval('sync_version'),
  sync_xid   xid8 NOT NULL DEFAULT pg_current_xact_id(),
  PRIMARY KEY (user_id, topic_id)
);
CREATE INDEX topic_dismissals_sync_idx ON topic_dismissals (sync_xid, version);
CREATE INDEX topic_dismissals_topic_id_idx ON topic_dismissals (topic_id);

-- Invitations to apply --------------------------------------------------------

CREATE TABLE invitations (
  id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  topic_id   uuid NOT NULL REFERENCES topics (id) ON DELETE CASCADE,
  mentee_id  uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  mentor_id  uuid NOT NULL REFERENCES users (id),
  status     text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'declined')),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  version    bigint NOT NULL DEFAULT nextval('sync_version'),
  sync_xid   xid8 NOT NULL DEFAULT pg_current_xact_id(),
  CONSTRAINT invitations_one_per_mentee UNIQUE (topic_id, mentee_id)
);
CREATE INDEX invitations_mentee_id_idx ON invitations (mentee_id);
CREATE INDEX invitations_mentor_id_idx ON invitations (mentor_id);
CREATE INDEX invitations_sync_idx ON invitations (sync_xid, version);

-- Programme settings ----------------------------------------------------------

-- One row per setting; a missing row means the default (shared/programme-settings.ts).
CREATE TABLE programme_settings (
  key        text PRIMARY KEY,
  value      jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by uuid REFERENCES users (id) ON DELETE SET NULL,
  version    bigint NOT NULL DEFAULT nextval('sync_version'),
  sync_xid   xid8 NOT NULL DEFAULT pg_current_xact_id()
);
CREATE INDEX programme_settings_sync_idx ON programme_settings (sync_xid, version);

CREATE TABLE programme_settings_changes (
  id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  key        text NOT NULL,
  before     jsonb,
  after      jsonb,
  changed_by uuid REFERENCES users (id) ON DELETE SET NULL,
  changed_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX programme_settings_changes_changed_at_idx
  ON programme_settings_changes (changed_at DESC);

-- Sync triggers for the new tables --------------------------------------------

CREATE OR REPLACE FUNCTION sync_poke() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r record;
  users uuid[];
  admins boolean := false;
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.version = NEW.version THEN
    RETURN NULL; -- nothing the API answers changed
  END IF;
  IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;
  CASE TG_TABLE_NAME
    WHEN 'topics' THEN
      IF (TG_OP <> 'INSERT' AND sync_topic_is_public(OLD.status))
         OR (TG_OP <> 'DELETE' AND sync_topic_is_public(NEW.status)) THEN
        users := NULL;
      ELSE
        users := ARRAY[r.mentor_id];
        IF TG_OP = 'UPDATE' AND OLD.mentor_id <> NEW.mentor_id THEN
          users := users || OLD.mentor_id;
        END IF;
        admins := true;
      END IF;
    WHEN 'applications' THEN
      users := ARRAY[r.mentee_id] || ARRAY(SELECT mentor_id FROM topics WHERE id = r.topic_id);
      admins := true;
    WHEN 'notifications', 'notification_preferences', 'topic_dismissals' THEN
      users := ARRAY[r.user_id];
    WHEN 'invitations' THEN
      users := ARRAY[r.mentee_id, r.mentor_id];
      IF TG_OP = 'UPDATE' AND (OLD.mentee_id, OLD.mentor_id) <> (NEW.mentee_id, NEW.mentor_id) THEN
        users := users || ARRAY[OLD.mentee_id, OLD.mentor_id];
      END IF;
    ELSE
      -- users, interests, feedback, programme_settings: every user may see them
      users := NULL;
  END CASE;
  PERFORM pg_notify('pairwise_sync', CASE
    WHEN users IS NULL THEN '{"all":true}'
    ELSE json_build_object('u', users, 'a', admins)::text
  END);
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION sync_log_delete() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  audience uuid[];
  admins boolean := false;
  row_id text;
BEGIN
  CASE TG_TABLE_NAME
    WHEN 'topics' THEN
      row_id := OLD.id::text;
      IF NOT sync_topic_is_public(OLD.status) THEN
        audience := ARRAY[OLD.mentor_id];
        admins := true;
      END IF;
    WHEN 'applications' THEN
      row_id := OLD.id::text;
      -- When the topic itself is being deleted its mentor is no longer known: tell everyone.
      SELECT ARRAY[OLD.mentee_id, t.mentor_id] INTO audience FROM topics t WHERE t.id = OLD.topic_id;
      admins := true;
    WHEN 'notifications' THEN
      row_id := OLD.id::text;
      audience := ARRAY[OLD.user_id];
    WHEN 'notification_preferences' THEN
      row_id := OLD.user_id::text;
      audience := ARRAY[OLD.user_id];
    WHEN 'topic_dismissals' THEN
      row_id := OLD.topic_id::text;
      audience := ARRAY[OLD.user_id];
    WHEN 'invitations' THEN
      row_id := OLD.id::text;
      audience := ARRAY[OLD.mentee_id, OLD.mentor_id];
    WHEN 'programme_settings' THEN
      row_id := OLD.key; -- back to the default: everyone hears of it
    WHEN 'interests' THEN
      row_id := OLD.name;
    ELSE
      row_id := OLD.id::text; -- users, feedback
  END CASE;
  -- A removal names the table as a pull does (shared/sync.ts SYNC_TABLES).
  INSERT INTO sync_removals (tbl, row_id, audience, admins)
  VALUES (CASE TG_TABLE_NAME WHEN 'topic_dismissals' THEN 'dismissals' ELSE TG_TABLE_NAME END,
          row_id, audience, admins);
  RETURN NULL;
END $$;

CREATE TRIGGER topic_dismissals_sync_stamp BEFORE UPDATE ON topic_dismissals
  FOR EACH ROW EXECUTE FUNCTION sync_stamp();
CREATE TRIGGER invitations_sync_stamp BEFORE UPDATE ON invitations
  FOR EACH ROW EXECUTE FUNCTION sync_stamp();
CREATE TRIGGER programme_settings_sync_stamp BEFORE UPDATE ON programme_settings
  FOR EACH ROW EXECUTE FUNCTION sync_stamp();

CREATE TRIGGER topic_dismissals_sync_poke AFTER INSERT OR UPDATE OR DELETE ON topic_dismissals
  FOR EACH ROW EXECUTE FUNCTION sync_poke();
CREATE TRIGGER invitations_sync_poke AFTER INSERT OR UPDATE OR DELETE ON invitations
  FOR EACH ROW EXECUTE FUNCTION sync_poke();
CREATE TRIGGER programme_settings_sync_poke AFTER INSERT OR UPDATE OR DELETE ON programme_settings
  FOR EACH ROW EXECUTE FUNCTION sync_poke();

CREATE TRIGGER topic_dismissals_sync_delete AFTER DELETE ON topic_dismissals
  FOR EACH ROW EXECUTE FUNCTION sync_log_delete();
CREATE TRIGGER invitations_sync_delete AFTER DELETE ON invitations
  FOR EACH ROW EXECUTE FUNCTION sync_log_delete();
CREATE TRIGGER programme_settings_sync_delete AFTER DELETE ON programme_settings
  FOR EACH ROW EXECUTE FUNCTION sync_log_delete();

CREATE TRIGGER topic_dismissals_sync_truncate BEFORE TRUNCATE ON topic_dismissals
  FOR EACH STATEMENT EXECUTE FUNCTION sync_refuse_truncate();
CREATE TRIGGER invitations_sync_truncate BEFORE TRUNCATE ON invitations
  FOR EACH STATEMENT EXECUTE FUNCTION sync_refuse_truncate();
CREATE TRIGGER programme_settings_sync_truncate BEFORE TRUNCATE ON programme_settings
  FOR EACH STATEMENT EXECUTE FUNCTION sync_refuse_truncate();
