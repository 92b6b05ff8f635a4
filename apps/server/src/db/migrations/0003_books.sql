CREATE TABLE "book_chapters" (
	"book_id" integer NOT NULL,
	"index" integer NOT NULL,
	"title" text NOT NULL,
	"url" text NOT NULL,
	"text" text NOT NULL,
	"word_count" integer NOT NULL,
	"reading_minutes" integer NOT NULL,
	"reading_grade" real NOT NULL,
	CONSTRAINT "book_chapters_book_id_index_pk" PRIMARY KEY("book_id","index")
);
--> statement-breakpoint
CREATE TABLE "book_covers" (
	"book_id" integer PRIMARY KEY NOT NULL,
	"jpeg" "bytea" NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"etag" text NOT NULL,
	"licence" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "book_imports" (
	"id" serial PRIMARY KEY NOT NULL,
	"source" text NOT NULL,
	"fingerprint" text NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"stage" text DEFAULT 'books' NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"stats" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "book_search" (
	"book_id" integer PRIMARY KEY NOT NULL,
	"download_count" integer DEFAULT 0 NOT NULL,
	"subject_slugs" text[] DEFAULT '{}'::text[] NOT NULL,
	"author_slugs" text[] DEFAULT '{}'::text[] NOT NULL,
	"search_title" text DEFAULT '' NOT NULL,
	"search_authors" text DEFAULT '' NOT NULL,
	"search" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('english'::regconfig, search_title), 'A') || setweight(to_tsvector('simple'::regconfig, search_authors), 'B')) STORED,
	"search_all" text GENERATED ALWAYS AS (search_title || ' ' || search_authors) STORED
);
--> statement-breakpoint
CREATE TABLE "books" (
	"id" integer PRIMARY KEY NOT NULL,
	"url" text NOT NULL,
	"title" text NOT NULL,
	"subtitle" text DEFAULT '' NOT NULL,
	"authors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"author_slugs" text[] DEFAULT '{}'::text[] NOT NULL,
	"subject" text NOT NULL,
	"subject_slugs" text[] DEFAULT '{}'::text[] NOT NULL,
	"lcsh" text[] DEFAULT '{}'::text[] NOT NULL,
	"lcc" text[] DEFAULT '{}'::text[] NOT NULL,
	"bookshelves" text[] DEFAULT '{}'::text[] NOT NULL,
	"languages" text[] DEFAULT '{}'::text[] NOT NULL,
	"download_count" integer DEFAULT 0 NOT NULL,
	"issued" date,
	"chapter_count" integer DEFAULT 0 NOT NULL,
	"word_count" integer,
	"reading_minutes" integer,
	"reading_grade" real,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "book_chapters" ADD CONSTRAINT "book_chapters_book_id_books_id_fk" FOREIGN KEY ("book_id") REFERENCES "public"."books"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "book_covers" ADD CONSTRAINT "book_covers_book_id_books_id_fk" FOREIGN KEY ("book_id") REFERENCES "public"."books"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "book_search" ADD CONSTRAINT "book_search_book_id_books_id_fk" FOREIGN KEY ("book_id") REFERENCES "public"."books"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "book_chapters_url_key" ON "book_chapters" USING btree ("book_id","url");--> statement-breakpoint
CREATE INDEX "book_search_search_idx" ON "book_search" USING gin ("search");--> statement-breakpoint
CREATE INDEX "book_search_trgm_idx" ON "book_search" USING gin ("search_all" gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "books_url_key" ON "books" USING btree ("url");--> statement-breakpoint
CREATE INDEX "books_popular_idx" ON "books" USING btree ("download_count" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "books_recent_idx" ON "books" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "books_subject_slugs_idx" ON "books" USING gin ("subject_slugs");--> statement-breakpoint
CREATE INDEX "books_author_slugs_idx" ON "books" USING gin ("author_slugs");