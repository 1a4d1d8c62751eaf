-- Sync (decision 0007): every synced row carries a version from one sequence
-- and the id of the transaction that last wrote it. Pulls page through rows by
-- transaction id below a watermark (the oldest transaction still running), so
-- a row whose transaction commits out of sequence order is never skipped.
-- Triggers poke clients through NOTIFY on commit and log rows that left
-- someone's view (hard deletes, a topic no longer public).

CREATE SEQUENCE sync_version AS bigint;

-- Adding the columns with volatile defaults stamps every existing row (backfill).
ALTER TABLE users
  ADD COLUMN version bigint NOT NULL DEFAULT nextval('sync_version'),
  ADD COLUMN sync_xid xid8 NOT NULL DEFAULT pg_current_xact_id();
ALTER TABLE interests
  ADD COLUMN version bigint NOT NULL DEFAULT nextval('sync_version'),
  ADD COLUMN sync_xid xid8 NOT NULL DEFAULT pg_current_xact_id();
ALTER TABLE topics
  ADD COLUMN version bigint NOT NULL DEFAULT nextval('sync_version'),
  ADD COLUMN sync_xid xid8 NOT NULL DEFAULT pg_current_xact_id();
ALTER TABLE applications
  ADD COLUMN version bigint NOT NULL DEFAULT nextval('sync_version'),
  ADD COLUMN sync_xid xid8 NOT NULL DEFAULT pg_current_xact_id();
ALTER TABLE feedback
  ADD COLUMN version bigint NOT NULL DEFAULT nextval('sync_version'),
  ADD COLUMN sync_xid xid8 NOT NULL DEFAULT pg_current_xact_id();
ALTER TABLE notifications
  ADD COLUMN version bigint NOT NULL DEFAULT nextval('sync_version'),
  ADD COLUMN sync_xid xid8 NOT NULL DEFAULT pg_current_xact_id();
ALTER TABLE notification_preferences
  ADD COLUMN version bigint NOT NULL DEFAULT nextval('sync_version'),
  ADD COLUMN sync_xid xid8 NOT NULL DEFAULT pg_current_xact_id();

CREATE INDEX users_sync_idx ON users (sync_xid, version);
CREATE INDEX interests_sync_idx ON interests (sync_xid, version);
CREATE INDEX topics_sync_idx ON topics (sync_xid, version);
CREATE INDEX applications_sync_idx ON applications (sync_xid, version);
CREATE INDEX feedback_sync_idx ON feedback (sync_xid, version);
CREATE INDEX notifications_sync_idx ON notifications (sync_xid, version);
CREATE INDEX notification_preferences_sync_idx ON notification_preferences (sync_xid, version);

-- Rows that may have left someone's view: hard deletes, and topics that stopped
-- being public. `audience` NULL means every user; otherwise those users, plus
-- administrators when `admins`. A pull sends a removal only to a user who cannot
-- see the row now, so a row that came back is never removed by an older entry.
CREATE TABLE sync_removals (
  id         bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
  tbl        text NOT NULL,
  row_id     text NOT NULL,
  audience   uuid[],
  admins     boolean NOT NULL DEFAULT false,
  version    bigint NOT NULL DEFAULT nextval('sync_version'),
  sync_xid   xid8 NOT NULL DEFAULT pg_current_xact_id(),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sync_removals_sync_idx ON sync_removals (sync_xid, id);
CREATE INDEX sync_removals_created_at_idx ON sync_removals (created_at);

-- A new version and transaction id on every real change; an UPDATE that changes
-- nothing keeps them (and pokes nobody).
CREATE FUNCTION sync_stamp() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW IS NOT DISTINCT FROM OLD THEN
    RETURN NEW;
  END IF;
  NEW.version := nextval('sync_version');
  NEW.sync_xid := pg_current_xact_id();
  RETURN NEW;
END $$;

-- Users also change for sign-ins (e-mail, timestamps); only the columns the API
-- answers count as a change.
CREATE FUNCTION sync_stamp_user() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (NEW.username, NEW.full_name, NEW.profile_image, NEW.seniority, NEW.bio, NEW.interests,
      NEW.is_admin)
     IS NOT DISTINCT FROM
     (OLD.username, OLD.full_name, OLD.profile_image, OLD.seniority, OLD.bio, OLD.interests,
      OLD.is_admin) THEN
    RETURN NEW;
  END IF;
  NEW.version := nextval('sync_version');
  NEW.sync_xid := pg_current_xact_id();
  RETURN NEW;
END $$;

CREATE TRIGGER users_sync_stamp BEFORE UPDATE ON users
  FOR EACH ROW EXECUTE FUNCTION sync_stamp_user();
CREATE TRIGGER interests_sync_stamp BEFORE UPDATE ON interests
  FOR EACH ROW EXECUTE FUNCTION sync_stamp();
CREATE TRIGGER topics_sync_stamp BEFORE UPDATE ON topics
  FOR EACH ROW EXECUTE FUNCTION sync_stamp();
CREATE TRIGGER applications_sync_stamp BEFORE UPDATE ON applications
  FOR EACH ROW EXECUTE FUNCTION sync_stamp();
CREATE TRIGGER feedback_sync_stamp BEFORE UPDATE ON feedback
  FOR EACH ROW EXECUTE FUNCTION sync_stamp();
CREATE TRIGGER notifications_sync_stamp BEFORE UPDATE ON notifications
  FOR EACH ROW EXECUTE FUNCTION sync_stamp();
CREATE TRIGGER notification_preferences_sync_stamp BEFORE UPDATE ON notification_preferences
  FOR EACH ROW EXECUTE FUNCTION sync_stamp();

CREATE FUNCTION sync_topic_is_public(status topic_status) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $$ SELECT status IN ('approved', 'started', 'concluded') $$;

-- Who should be poked about a changed row, sent on commit through NOTIFY
-- (identical payloads in one transaction arrive once): {"all":true} for rows
-- every user sees, else {"u":[user ids],"a":<administrators too>}.
CREATE FUNCTION sync_poke() RETURNS trigger LANGUAGE plpgsql AS $$
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
    WHEN 'notifications', 'notification_preferences' THEN
      users := ARRAY[r.user_id];
    ELSE
      users := NULL; -- users, interests, feedback: every user may see them
  END CASE;
  PERFORM pg_notify('pairwise_sync', CASE
    WHEN users IS NULL THEN '{"all":true}'
    ELSE json_build_object('u', users, 'a', admins)::text
  END);
  RETURN NULL;
END $$;

CREATE TRIGGER users_sync_poke AFTER INSERT OR UPDATE OR DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION sync_poke();
CREATE TRIGGER interests_sync_poke AFTER INSERT OR UPDATE OR DELETE ON interests
  FOR EACH ROW EXECUTE FUNCTION sync_poke();
CREATE TRIGGER topics_sync_poke AFTER INSERT OR UPDATE OR DELETE ON topics
  FOR EACH ROW EXECUTE FUNCTION sync_poke();
CREATE TRIGGER applications_sync_poke AFTER INSERT OR UPDATE OR DELETE ON applications
  FOR EACH ROW EXECUTE FUNCTION sync_poke();
CREATE TRIGGER feedback_sync_poke AFTER INSERT OR UPDATE OR DELETE ON feedback
  FOR EACH ROW EXECUTE FUNCTION sync_poke();
CREATE TRIGGER notifications_sync_poke AFTER INSERT OR UPDATE OR DELETE ON notifications
  FOR EACH ROW EXECUTE FUNCTION sync_poke();
CREATE TRIGGER notification_preferences_sync_poke
  AFTER INSERT OR UPDATE OR DELETE ON notification_preferences
  FOR EACH ROW EXECUTE FUNCTION sync_poke();

-- Hard deletes (the API deletes none of these rows; an operator may).
CREATE FUNCTION sync_log_delete() RETURNS trigger LANGUAGE plpgsql AS $$
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
    WHEN 'interests' THEN
      row_id := OLD.name;
    ELSE
      row_id := OLD.id::text; -- users, feedback
  END CASE;
  INSERT INTO sync_removals (tbl, row_id, audience, admins)
  VALUES (TG_TABLE_NAME, row_id, audience, admins);
  RETURN NULL;
END $$;

CREATE TRIGGER users_sync_delete AFTER DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION sync_log_delete();
CREATE TRIGGER interests_sync_delete AFTER DELETE ON interests
  FOR EACH ROW EXECUTE FUNCTION sync_log_delete();
CREATE TRIGGER topics_sync_delete AFTER DELETE ON topics
  FOR EACH ROW EXECUTE FUNCTION sync_log_delete();
CREATE TRIGGER applications_sync_delete AFTER DELETE ON applications
  FOR EACH ROW EXECUTE FUNCTION sync_log_delete();
CREATE TRIGGER feedback_sync_delete AFTER DELETE ON feedback
  FOR EACH ROW EXECUTE FUNCTION sync_log_delete();
CREATE TRIGGER notifications_sync_delete AFTER DELETE ON notifications
  FOR EACH ROW EXECUTE FUNCTION sync_log_delete();
CREATE TRIGGER notification_preferences_sync_delete AFTER DELETE ON notification_preferences
  FOR EACH ROW EXECUTE FUNCTION sync_log_delete();

-- A topic that stops being public (an operator moving it back to proposed), or a
-- hidden topic given another mentor, leaves the view of users who had it.
CREATE FUNCTION sync_log_topic_hidden() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF sync_topic_is_public(OLD.status) AND NOT sync_topic_is_public(NEW.status) THEN
    INSERT INTO sync_removals (tbl, row_id) VALUES ('topics', NEW.id::text);
  ELSIF NOT sync_topic_is_public(NEW.status) AND OLD.mentor_id <> NEW.mentor_id THEN
    INSERT INTO sync_removals (tbl, row_id, audience) VALUES ('topics', NEW.id::text, ARRAY[OLD.mentor_id]);
  END IF;
  IF OLD.mentor_id <> NEW.mentor_id THEN
    -- The former mentor no longer sees the topic's applications.
    INSERT INTO sync_removals (tbl, row_id, audience)
    SELECT 'applications', a.id::text, ARRAY[OLD.mentor_id] FROM applications a WHERE a.topic_id = NEW.id;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER topics_sync_hidden AFTER UPDATE OF status, mentor_id ON topics
  FOR EACH ROW EXECUTE FUNCTION sync_log_topic_hidden();

-- TRUNCATE fires no row triggers: clients would keep rows that are gone. Refuse it.
CREATE FUNCTION sync_refuse_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'TRUNCATE of synced table % is not allowed; DELETE the rows instead', TG_TABLE_NAME;
END $$;

CREATE TRIGGER users_sync_truncate BEFORE TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION sync_refuse_truncate();
CREATE TRIGGER interests_sync_truncate BEFORE TRUNCATE ON interests
  FOR EACH STATEMENT EXECUTE FUNCTION sync_refuse_truncate();
CREATE TRIGGER topics_sync_truncate BEFORE TRUNCATE ON topics
  FOR EACH STATEMENT EXECUTE FUNCTION sync_refuse_truncate();
CREATE TRIGGER applications_sync_truncate BEFORE TRUNCATE ON applications
  FOR EACH STATEMENT EXECUTE FUNCTION sync_refuse_truncate();
CREATE TRIGGER feedback_sync_truncate BEFORE TRUNCATE ON feedback
  FOR EACH STATEMENT EXECUTE FUNCTION sync_refuse_truncate();
CREATE TRIGGER notifications_sync_truncate BEFORE TRUNCATE ON notifications
  FOR EACH STATEMENT EXECUTE FUNCTION sync_refuse_truncate();
CREATE TRIGGER notification_preferences_sync_truncate BEFORE TRUNCATE ON notification_preferences
  FOR EACH STATEMENT EXECUTE FUNCTION sync_refuse_truncate();
