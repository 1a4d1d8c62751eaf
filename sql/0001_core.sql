-- Core schema of the mentorship programme: users, topics, applications,
-- feedback, notifications, preferences, sessions and idempotency keys.
-- Constraints carry every rule a database can check (spec sections 3, 4, 9).

CREATE TYPE seniority AS ENUM ('junior', 'mid', 'senior');
CREATE TYPE topic_location AS ENUM ('online', 'in-person', 'both');
CREATE TYPE topic_status AS ENUM ('proposed', 'approved', 'rejected', 'started', 'concluded');
CREATE TYPE application_status AS ENUM ('pending', 'accepted', 'rejected');
CREATE TYPE notification_kind AS ENUM (
  'new_application', 'topic_approved', 'topic_rejected', 'application_accepted',
  'application_rejected', 'topic_for_review', 'topic_started', 'topic_concluded'
);

CREATE TABLE users (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  username      text NOT NULL CHECK (username ~ '^[A-Za-z0-9._@-]{1,64}$'),
  full_name     text NOT NULL DEFAULT '',
  email         text,
  entra_oid     text UNIQUE,
  profile_image text,
  seniority     seniority,
  bio           text NOT NULL DEFAULT '' CHECK (length(bio) <= 5000),
  interests     text[] NOT NULL DEFAULT '{}',
  is_admin      boolean NOT NULL DEFAULT false,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now()
);
-- Usernames are unique regardless of case: /profile/Ada and /profile/ada are one person.
CREATE UNIQUE INDEX users_username_lower_key ON users (lower(username));

CREATE TABLE interests (
  name       text PRIMARY KEY CHECK (length(btrim(name)) BETWEEN 1 AND 60),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX interests_name_lower_key ON interests (lower(name));

CREATE TABLE topics (
  id                 uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  subject            text NOT NULL CHECK (length(btrim(subject)) BETWEEN 1 AND 200),
  description        text NOT NULL DEFAULT '',
  max_mentees        smallint NOT NULL CHECK (max_mentees IN (1, 2)),
  current_mentees    smallint NOT NULL DEFAULT 0 CHECK (current_mentees >= 0),
  seniority_required seniority[] NOT NULL CHECK (cardinality(seniority_required) >= 1),
  location           topic_location NOT NULL DEFAULT 'online',
  interests          text[] NOT NULL DEFAULT '{}',
  status             topic_status NOT NULL DEFAULT 'proposed',
  mentor_id          uuid NOT NULL REFERENCES users (id) ON DELETE RESTRICT,
  mentor_feedback    text,
  rejection_reason   text,
  created_at         timestamptz NOT NULL DEFAULT now(),
  updated_at         timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT topics_mentees_within_max CHECK (current_mentees <= max_mentees),
  CONSTRAINT topics_concluded_has_feedback CHECK (status <> 'concluded' OR mentor_feedback IS NOT NULL),
  CONSTRAINT topics_reason_only_when_rejected CHECK (status = 'rejected' OR rejection_reason IS NULL)
);
CREATE INDEX topics_mentor_id_idx ON topics (mentor_id, created_at DESC);
CREATE INDEX topics_status_idx ON topics (status, created_at DESC);

CREATE TABLE applications (
  id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  topic_id         uuid NOT NULL REFERENCES topics (id) ON DELETE CASCADE,
  mentee_id        uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  status           application_status NOT NULL DEFAULT 'pending',
  rejection_reason text,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT applications_one_per_mentee UNIQUE (topic_id, mentee_id),
  CONSTRAINT applications_rejected_has_reason CHECK (
    (status = 'rejected') = (rejection_reason IS NOT NULL AND length(btrim(rejection_reason)) > 0)
  )
);
CREATE INDEX applications_mentee_id_idx ON applications (mentee_id, created_at DESC);

CREATE TABLE feedback (
  id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  topic_id   uuid NOT NULL REFERENCES topics (id) ON DELETE CASCADE,
  user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  feedback   text NOT NULL CHECK (length(btrim(feedback)) >= 1),
  rating     smallint NOT NULL CHECK (rating BETWEEN 1 AND 5),
  is_mentor  boolean NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT feedback_one_per_user UNIQUE (topic_id, user_id)
);
CREATE INDEX feedback_user_id_idx ON feedback (user_id);

CREATE TABLE notifications (
  id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind       notification_kind NOT NULL,
  title      text NOT NULL,
  message    text NOT NULL,
  link       text,
  read       boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX notifications_user_id_idx ON notifications (user_id, created_at DESC);

CREATE TABLE notification_preferences (
  user_id                    uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  new_applications           boolean NOT NULL DEFAULT true,
  topic_status_updates       boolean NOT NULL DEFAULT true,
  application_status_updates boolean NOT NULL DEFAULT true,
  new_topics_for_review      boolean NOT NULL DEFAULT true,
  updated_at                 timestamptz NOT NULL DEFAULT now()
);

-- Sessions: only a SHA-256 hash of the random session id is stored.
CREATE TABLE sessions (
  id_hash      text PRIMARY KEY,
  user_id      uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at   timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  expires_at   timestamptz NOT NULL
);
CREATE INDEX sessions_user_id_idx ON sessions (user_id);
CREATE INDEX sessions_expires_at_idx ON sessions (expires_at);

-- Idempotency-Key records, written in the same transaction as the effect.
CREATE TABLE idempotency_keys (
  user_id         uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  key             text NOT NULL CHECK (length(key) BETWEEN 1 AND 255),
  method          text NOT NULL,
  path            text NOT NULL,
  request_hash    text NOT NULL,
  response_status smallint,
  response_body   text,
  created_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, key)
);
CREATE INDEX idempotency_keys_created_at_idx ON idempotency_keys (created_at);
