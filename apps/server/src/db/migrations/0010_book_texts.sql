CREATE TABLE "book_texts" (
	"book_id" integer PRIMARY KEY NOT NULL,
	"status" text NOT NULL,
	"stage" text,
	"progress" real DEFAULT 0 NOT NULL,
	"error_code" text,
	"error_message" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"source" text,
	"bytes" integer,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"failed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "book_texts" ADD CONSTRAINT "book_texts_book_id_books_id_fk" FOREIGN KEY ("book_id") REFERENCES "public"."books"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "book_texts_finished_idx" ON "book_texts" USING btree ("finished_at");--> statement-breakpoint
CREATE INDEX "book_texts_status_idx" ON "book_texts" USING btree ("status");