-- When things happened, for programme insights (issue 19, docs/insights.md):
-- topics.submitted_at (last time it went to `proposed`), reviewed_at (approved or
-- rejected by an administrator), started_at, concluded_at; applications.decided_at
-- (accepted or rejected). A trigger stamps them on the status change itself, so
-- every route that changes a status (and an operator's UPDATE) records the time
-- without knowing about it.

ALTER TABLE topics
  ADD COLUMN submitted_at timestamptz,
  ADD COLUMN reviewed_at  timestamptz,
  ADD COLUMN started_at   timestamptz,
  ADD COLUMN concluded_at timestamptz;
ALTER TABLE applications ADD COLUMN decided_at timestamptz;

-- Existing rows: the best the old columns know. created_at is when a topic was
-- proposed; updated_at is the last change, which for a decided row is at or after
-- its decision.
UPDATE topics SET
  submitted_at = created_at,
  reviewed_at  = CASE WHEN status <> 'proposed' THEN updated_at END,
  started_at   = CASE WHEN status IN ('started', 'concluded') THEN updated_at END,
  concluded_at = CASE WHEN status = 'concluded' THEN updated_at END;
UPDATE applications SET decided_at = CASE WHEN status <> 'pending' THEN updated_at END;

ALTER TABLE topics ALTER COLUMN submitted_at SET NOT NULL;

-- Rows inserted with a status already set (demo and scale seeds, imports) get the
-- same estimates unless they give the times themselves.
CREATE FUNCTION topics_stamp_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.submitted_at := coalesce(NEW.submitted_at, NEW.created_at);
  IF NEW.status <> 'proposed' THEN NEW.reviewed_at := coalesce(NEW.reviewed_at, NEW.updated_at); END IF;
  IF NEW.status IN ('started', 'concluded') THEN NEW.started_at := coalesce(NEW.started_at, NEW.updated_at); END IF;
  IF NEW.status = 'concluded' THEN NEW.concluded_at := coalesce(NEW.concluded_at, NEW.updated_at); END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER topics_stamp_insert BEFORE INSERT ON topics
  FOR EACH ROW EXECUTE FUNCTION topics_stamp_insert();

CREATE FUNCTION applications_stamp_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status <> 'pending' THEN NEW.decided_at := coalesce(NEW.decided_at, NEW.updated_at); END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER applications_stamp_insert BEFORE INSERT ON applications
  FOR EACH ROW EXECUTE FUNCTION applications_stamp_insert();

CREATE FUNCTION topics_stamp_times() RETURNS trigger LANGUAGE plpgsql AS $$
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
      WHEN 'concluded' THEN
        NEW.concluded_at := now();
    END CASE;
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER topics_stamp_times BEFORE UPDATE OF status ON topics
  FOR EACH ROW EXECUTE FUNCTION topics_stamp_times();

CREATE FUNCTION applications_stamp_times() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status IS DISTINCT FROM OLD.status THEN
    NEW.decided_at := CASE WHEN NEW.status = 'pending' THEN NULL ELSE now() END;
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER applications_stamp_times BEFORE UPDATE OF status ON applications
  FOR EACH ROW EXECUTE FUNCTION applications_stamp_times();

-- The insights read topics by when they were proposed and applications by when they were made.
CREATE INDEX topics_created_at_idx ON topics (created_at);
CREATE INDEX applications_created_at_idx ON applications (created_at);
