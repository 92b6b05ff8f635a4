CREATE TABLE "assistant_conversations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"title" text NOT NULL,
	"grade" text NOT NULL,
	"context" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "assistant_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"conversation_id" uuid NOT NULL,
	"role" text NOT NULL,
	"content" text NOT NULL,
	"status" text DEFAULT 'complete' NOT NULL,
	"details" jsonb DEFAULT '{"citations":[],"quoteChecks":[],"materials":[]}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "assistant_token_uses" (
	"jti" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chapter_paragraphs" (
	"book_id" integer NOT NULL,
	"chapter_index" integer NOT NULL,
	"n" integer NOT NULL,
	"text" text NOT NULL,
	"search" "tsvector" GENERATED ALWAYS AS (to_tsvector('english'::regconfig, text)) STORED,
	CONSTRAINT "chapter_paragraphs_book_id_chapter_index_n_pk" PRIMARY KEY("book_id","chapter_index","n")
);
--> statement-breakpoint
ALTER TABLE "assistant_conversations" ADD CONSTRAINT "assistant_conversations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assistant_messages" ADD CONSTRAINT "assistant_messages_conversation_id_assistant_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."assistant_conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chapter_paragraphs" ADD CONSTRAINT "chapter_paragraphs_book_id_chapter_index_book_chapters_book_id_index_fk" FOREIGN KEY ("book_id","chapter_index") REFERENCES "public"."book_chapters"("book_id","index") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
CREATE INDEX "assistant_conversations_user_idx" ON "assistant_conversations" USING btree ("user_id","updated_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "assistant_messages_conversation_idx" ON "assistant_messages" USING btree ("conversation_id","created_at");--> statement-breakpoint
CREATE INDEX "chapter_paragraphs_search_idx" ON "chapter_paragraphs" USING gin ("search");--> statement-breakpoint
-- The paragraph index follows book_chapters: whatever writes chapters (the importer, the seeder,
-- a future editor) fills it. Paragraphs split as the chapter page and splitParagraphs() do,
-- numbered from 1 (the page's #p-N anchors); blank ones keep their number but are not stored.
CREATE FUNCTION chapter_paragraphs_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    DELETE FROM chapter_paragraphs WHERE book_id = NEW.book_id AND chapter_index = NEW.index;
  END IF;
  INSERT INTO chapter_paragraphs (book_id, chapter_index, n, text)
  SELECT NEW.book_id, NEW.index, p.n, p.text
  FROM regexp_split_to_table(NEW.text, '\n{2,}') WITH ORDINALITY AS p(text, n)
  WHERE btrim(p.text, E' \t\r\n') <> '';
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER chapter_paragraphs_sync AFTER INSERT OR UPDATE OF text ON book_chapters
  FOR EACH ROW EXECUTE FUNCTION chapter_paragraphs_sync();--> statement-breakpoint
INSERT INTO chapter_paragraphs (book_id, chapter_index, n, text)
SELECT c.book_id, c.index, p.n, p.text
FROM book_chapters c, regexp_split_to_table(c.text, '\n{2,}') WITH ORDINALITY AS p(text, n)
WHERE btrim(p.text, E' \t\r\n') <> '';
