CREATE TABLE "book_words" (
	"word" text PRIMARY KEY NOT NULL,
	"books" integer NOT NULL,
	"downloads" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "book_search" ADD COLUMN "title_key" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "book_search" ADD COLUMN "short_key" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "book_search" ADD COLUMN "work_key" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "book_search" ADD COLUMN "has_text" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "books" ADD COLUMN "has_text" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "book_words_trgm_idx" ON "book_words" USING gin ("word" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "book_search_title_key_idx" ON "book_search" USING btree ("title_key");--> statement-breakpoint
CREATE INDEX "book_search_short_key_idx" ON "book_search" USING btree ("short_key");
--> statement-breakpoint
-- books.has_text and book_search.has_text follow book_chapters, whoever writes the chapters
-- (the importer, the on-demand text fetcher, an admin), so search can rank books with a text
-- above those without.
CREATE OR REPLACE FUNCTION book_chapters_keep_has_text() RETURNS trigger AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    IF NOT EXISTS (SELECT 1 FROM book_chapters WHERE book_id = OLD.book_id) THEN
      UPDATE books SET has_text = false WHERE id = OLD.book_id AND has_text;
      UPDATE book_search SET has_text = false WHERE book_id = OLD.book_id AND has_text;
    END IF;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    UPDATE books SET has_text = true WHERE id = NEW.book_id AND NOT has_text;
    UPDATE book_search SET has_text = true WHERE book_id = NEW.book_id AND NOT has_text;
  END IF;
  RETURN NULL;
END
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER book_chapters_has_text AFTER INSERT OR UPDATE OF book_id OR DELETE ON book_chapters
  FOR EACH ROW EXECUTE FUNCTION book_chapters_keep_has_text();
--> statement-breakpoint
-- A book_search row written after its chapters (a re-import) takes the flag from books.
CREATE OR REPLACE FUNCTION book_search_take_has_text() RETURNS trigger AS $$
BEGIN
  NEW.has_text := coalesce((SELECT has_text FROM books WHERE id = NEW.book_id), false);
  RETURN NEW;
END
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER book_search_has_text BEFORE INSERT ON book_search
  FOR EACH ROW EXECUTE FUNCTION book_search_take_has_text();
--> statement-breakpoint
UPDATE books SET has_text = true WHERE id IN (SELECT DISTINCT book_id FROM book_chapters);
--> statement-breakpoint
-- Existing catalogues: the keys the importer now writes (the importer computes them the same way).
UPDATE book_search s SET has_text = b.has_text,
  title_key = k.title_key,
  short_key = k.short_key,
  work_key = k.short_key || '|' || coalesce(b.author_slugs[1], '')
FROM books b,
  LATERAL (SELECT
    regexp_replace(trim(regexp_replace(regexp_replace(lower(unaccent(b.title)), '[’'']', '', 'g'), '[^a-z0-9]+', ' ', 'g')), '^(the|a|an) ', '') AS title_key,
    regexp_replace(trim(regexp_replace(regexp_replace(lower(unaccent(regexp_replace(b.title, '[;:].*$', ''))), '[’'']', '', 'g'), '[^a-z0-9]+', ' ', 'g')), '^(the|a|an) ', '') AS short_key
  ) k
WHERE s.book_id = b.id;
--> statement-breakpoint
INSERT INTO book_words (word, books, downloads)
  SELECT w, count(*), max(download_count)
  FROM book_search, unnest(tsvector_to_array(to_tsvector('simple', search_all))) AS w
  GROUP BY w;
