CREATE TABLE "generated_materials" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid,
	"set_id" uuid,
	"name" text NOT NULL,
	"grade" text NOT NULL,
	"subject" text NOT NULL,
	"type" text NOT NULL,
	"reference_text" text DEFAULT '' NOT NULL,
	"description_text" text DEFAULT '' NOT NULL,
	"book_url" text,
	"chapter_url" text,
	"is_platform" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"error" text,
	"output" jsonb,
	"charged" boolean DEFAULT false NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"lease_until" timestamp with time zone,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "generated_materials_status_check" CHECK ("generated_materials"."status" in ('pending', 'running', 'finished', 'failed')),
	CONSTRAINT "generated_materials_owner_check" CHECK ("generated_materials"."is_platform" or "generated_materials"."user_id" is not null)
);
--> statement-breakpoint
CREATE TABLE "material_sets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "generated_materials" ADD CONSTRAINT "generated_materials_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "generated_materials" ADD CONSTRAINT "generated_materials_set_id_material_sets_id_fk" FOREIGN KEY ("set_id") REFERENCES "public"."material_sets"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "material_sets" ADD CONSTRAINT "material_sets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "generated_materials_user_created_idx" ON "generated_materials" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "generated_materials_set_created_idx" ON "generated_materials" USING btree ("set_id","created_at");--> statement-breakpoint
CREATE INDEX "generated_materials_platform_chapter_idx" ON "generated_materials" USING btree ("book_url","chapter_url") WHERE "generated_materials"."is_platform";--> statement-breakpoint
CREATE INDEX "generated_materials_unfinished_idx" ON "generated_materials" USING btree ("status","updated_at") WHERE "generated_materials"."status" in ('pending', 'running');--> statement-breakpoint
CREATE INDEX "material_sets_user_created_idx" ON "material_sets" USING btree ("user_id","created_at");