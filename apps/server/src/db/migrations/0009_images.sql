CREATE TABLE "generated_images" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"prediction_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"url" text NOT NULL,
	"storage_key" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "image_models" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"subject_class" text NOT NULL,
	"trigger_word" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"progress" integer DEFAULT 0 NOT NULL,
	"error" text,
	"is_private" boolean DEFAULT true NOT NULL,
	"engine" text NOT NULL,
	"photo_keys" text[] DEFAULT '{}' NOT NULL,
	"cover_key" text,
	"palette" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"provider_training_id" text,
	"provider_version" text,
	"charged" boolean DEFAULT true NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"lease_until" timestamp with time zone,
	"last_polled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "image_predictions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"model_id" uuid,
	"base_model" text,
	"model_name" text NOT NULL,
	"prompt" text NOT NULL,
	"negative_prompt" text DEFAULT '' NOT NULL,
	"num_images" integer NOT NULL,
	"aspect_ratio" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"seed" integer NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"error" text,
	"engine" text NOT NULL,
	"provider_id" text,
	"charged" integer DEFAULT 0 NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"lease_until" timestamp with time zone,
	"last_polled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "image_upscales" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"image_id" uuid NOT NULL,
	"scale" integer NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"error" text,
	"engine" text NOT NULL,
	"provider_id" text,
	"storage_key" text,
	"width" integer,
	"height" integer,
	"charged" integer DEFAULT 0 NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"lease_until" timestamp with time zone,
	"last_polled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "image_webhook_events" (
	"id" text PRIMARY KEY NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "profile_posts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"image_id" uuid NOT NULL,
	"upscale_id" uuid,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "generated_images" ADD CONSTRAINT "generated_images_prediction_id_image_predictions_id_fk" FOREIGN KEY ("prediction_id") REFERENCES "public"."image_predictions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "generated_images" ADD CONSTRAINT "generated_images_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "image_models" ADD CONSTRAINT "image_models_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "image_predictions" ADD CONSTRAINT "image_predictions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "image_predictions" ADD CONSTRAINT "image_predictions_model_id_image_models_id_fk" FOREIGN KEY ("model_id") REFERENCES "public"."image_models"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "image_upscales" ADD CONSTRAINT "image_upscales_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "image_upscales" ADD CONSTRAINT "image_upscales_image_id_generated_images_id_fk" FOREIGN KEY ("image_id") REFERENCES "public"."generated_images"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_posts" ADD CONSTRAINT "profile_posts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_posts" ADD CONSTRAINT "profile_posts_image_id_generated_images_id_fk" FOREIGN KEY ("image_id") REFERENCES "public"."generated_images"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_posts" ADD CONSTRAINT "profile_posts_upscale_id_image_upscales_id_fk" FOREIGN KEY ("upscale_id") REFERENCES "public"."image_upscales"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "generated_images_user_url_key" ON "generated_images" USING btree ("user_id","url");--> statement-breakpoint
CREATE INDEX "generated_images_prediction_idx" ON "generated_images" USING btree ("prediction_id","position");--> statement-breakpoint
CREATE INDEX "image_models_user_created_idx" ON "image_models" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "image_models_provider_idx" ON "image_models" USING btree ("provider_training_id");--> statement-breakpoint
CREATE INDEX "image_predictions_user_created_idx" ON "image_predictions" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "image_predictions_model_created_idx" ON "image_predictions" USING btree ("model_id","created_at");--> statement-breakpoint
CREATE INDEX "image_predictions_provider_idx" ON "image_predictions" USING btree ("provider_id");--> statement-breakpoint
CREATE INDEX "image_upscales_image_idx" ON "image_upscales" USING btree ("image_id","created_at");--> statement-breakpoint
CREATE INDEX "image_upscales_provider_idx" ON "image_upscales" USING btree ("provider_id");--> statement-breakpoint
CREATE UNIQUE INDEX "profile_posts_image_key" ON "profile_posts" USING btree ("image_id");--> statement-breakpoint
CREATE INDEX "profile_posts_user_created_idx" ON "profile_posts" USING btree ("user_id","created_at");