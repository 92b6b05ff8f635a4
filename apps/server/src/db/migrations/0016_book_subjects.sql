-- What a book is about, for search (decision 015): the parts of its subject headings (LCSH)
-- normalised like search_title, without the free-floating subdivisions that say what kind of
-- book it is rather than what it is about ("Whales -- Fiction" → "whales"; "France -- History
-- -- Revolution, 1789-1799 -- Fiction" → "france revolution 1789 1799"). The heading itself is
-- always kept. The importer writes search_subjects with this function, so there is one rule.
CREATE OR REPLACE FUNCTION book_subject_text(headings text[]) RETURNS text
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT coalesce(string_agg(DISTINCT n.part, ' '), '')
  FROM unnest(headings) AS h(heading),
    LATERAL unnest(string_to_array(h.heading, ' -- ')) WITH ORDINALITY AS p(seg, i),
    LATERAL (SELECT trim(regexp_replace(regexp_replace(lower(unaccent(p.seg)), '[’'']', '', 'g'),
      '[^a-z0-9]+', ' ', 'g')) AS part) n
  WHERE n.part <> '' AND (p.i = 1 OR NOT (
    n.part = ANY (ARRAY['fiction', 'juvenile fiction', 'juvenile literature', 'juvenile poetry',
      'juvenile drama', 'history', 'history and criticism', 'periodicals',
      'description and travel', 'social life and customs', 'biography', 'drama', 'poetry',
      'early works to 1800', 'sources', 'correspondence', 'politics and government', 'humor',
      'pictorial works', 'anecdotes', 'miscellanea', 'bibliography', 'catalogs', 'dictionaries',
      'criticism and interpretation', 'diaries', 'personal narratives', 'textbooks',
      'study and teaching', 'comic books strips etc', 'quotations maxims etc',
      'handbooks manuals etc', 'collections', 'literary collections',
      'addresses essays lectures', 'songs and music', 'guidebooks', 'maps', 'statistics',
      'registers', 'language', 'glossaries vocabularies etc'])
    OR n.part LIKE 'translations into %'
    OR n.part ~ '^[0-9]+(st|nd|rd|th) century$'
    OR n.part ~ '^(to )?[0-9]{3,4}( [0-9]{1,4})*$'))
$$;
--> statement-breakpoint
ALTER TABLE "book_search" ADD COLUMN "search_subjects" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "book_search" ADD COLUMN "subjects" "tsvector" GENERATED ALWAYS AS (to_tsvector('english'::regconfig, search_subjects)) STORED;--> statement-breakpoint

-- Catalogues imported before this migration: their books' headings.
UPDATE book_search s SET search_subjects = book_subject_text(b.lcsh)
FROM books b WHERE b.id = s.book_id AND cardinality(b.lcsh) > 0;
--> statement-breakpoint
CREATE INDEX "book_search_subjects_idx" ON "book_search" USING gin ("subjects");