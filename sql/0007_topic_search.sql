-- Full-text search for GET /api/topics?q= (decision 0034). The 'simple'
-- configuration: no stemming and no stop words, so names, product words and
-- short terms ("Go", "IT", "C") match as typed in any language the company
-- writes in. Subject weighs most (A), then interests (B), then the description
-- (C), its sanitised HTML stripped of tags and entities. The mentor's name has
-- its own document on users (B), matched through an expression index.

CREATE FUNCTION topic_search_document(subject text, description text, interests text[])
RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT setweight(to_tsvector('simple'::regconfig, subject), 'A')
      || setweight(to_tsvector('simple'::regconfig, array_to_string(interests, ' ')), 'B')
      || setweight(to_tsvector('simple'::regconfig,
           regexp_replace(regexp_replace(description, '<[^>]*>', ' ', 'g'), '&[#A-Za-z0-9]+;', ' ', 'g')), 'C')
$$;

ALTER TABLE topics ADD COLUMN search tsvector
  GENERATED ALWAYS AS (topic_search_document(subject, description, interests)) STORED;
CREATE INDEX topics_search_idx ON topics USING gin (search);

-- A username's separators split words: "ada.lovelace" is found by "ada" and by "lovelace".
CREATE FUNCTION user_search_document(full_name text, username text)
RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT setweight(to_tsvector('simple'::regconfig, full_name || ' ' || translate(username, '._@-', '    ')), 'B')
$$;

CREATE INDEX users_search_idx ON users USING gin (user_search_document(full_name, username));
