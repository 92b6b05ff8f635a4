CREATE TABLE "generations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"url" text NOT NULL,
	"prompt" text NOT NULL,
	"prediction_id" uuid,
	"image_id" uuid,
	"upscale_id" uuid,
	"status" text DEFAULT 'generating' NOT NULL,
	"error" text,
	"artwork_key" text,
	"provider" text NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	"download_count" integer DEFAULT 0 NOT NULL,
	"lease_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "print_webhook_events" (
	"id" text PRIMARY KEY NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "products" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"generation_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"title" text NOT NULL,
	"url" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"blueprint_id" integer NOT NULL,
	"print_provider_id" integer NOT NULL,
	"price_cents" integer NOT NULL,
	"variants" jsonb NOT NULL,
	"images" jsonb NOT NULL,
	"provider" text NOT NULL,
	"provider_product_id" text NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "products_price_check" CHECK ("products"."price_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "shop_orders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"product_id" uuid,
	"generation_id" uuid,
	"seller_user_id" uuid,
	"seller_share_cents" integer DEFAULT 0 NOT NULL,
	"title" text NOT NULL,
	"variant_id" integer NOT NULL,
	"variant_title" text NOT NULL,
	"quantity" integer NOT NULL,
	"unit_price_cents" integer NOT NULL,
	"image" text,
	"product_path" text,
	"shipping_address" jsonb,
	"provider" text NOT NULL,
	"provider_product_id" text NOT NULL,
	"provider_order_id" text,
	"status" text DEFAULT 'awaiting_payment' NOT NULL,
	"tracking_number" text,
	"tracking_url" text,
	"carrier" text,
	"error" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"lease_until" timestamp with time zone,
	"last_polled_at" timestamp with time zone,
	"submitted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "shop_orders_quantity_check" CHECK ("shop_orders"."quantity" between 1 and 10)
);
--> statement-breakpoint
CREATE TABLE "shop_views" (
	"object_id" uuid NOT NULL,
	"visitor" text NOT NULL,
	"day" date NOT NULL,
	CONSTRAINT "shop_views_object_id_visitor_day_pk" PRIMARY KEY("object_id","visitor","day")
);
--> statement-breakpoint
ALTER TABLE "generations" ADD CONSTRAINT "generations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "generations" ADD CONSTRAINT "generations_prediction_id_image_predictions_id_fk" FOREIGN KEY ("prediction_id") REFERENCES "public"."image_predictions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "generations" ADD CONSTRAINT "generations_image_id_generated_images_id_fk" FOREIGN KEY ("image_id") REFERENCES "public"."generated_images"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "generations" ADD CONSTRAINT "generations_upscale_id_image_upscales_id_fk" FOREIGN KEY ("upscale_id") REFERENCES "public"."image_upscales"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_generation_id_generations_id_fk" FOREIGN KEY ("generation_id") REFERENCES "public"."generations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shop_orders" ADD CONSTRAINT "shop_orders_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shop_orders" ADD CONSTRAINT "shop_orders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shop_orders" ADD CONSTRAINT "shop_orders_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shop_orders" ADD CONSTRAINT "shop_orders_generation_id_generations_id_fk" FOREIGN KEY ("generation_id") REFERENCES "public"."generations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shop_orders" ADD CONSTRAINT "shop_orders_seller_user_id_users_id_fk" FOREIGN KEY ("seller_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "generations_url_key" ON "generations" USING btree ("url");--> statement-breakpoint
CREATE INDEX "generations_user_created_idx" ON "generations" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "generations_ready_created_idx" ON "generations" USING btree ("created_at") WHERE "generations"."status" = 'ready';--> statement-breakpoint
CREATE INDEX "generations_ready_views_idx" ON "generations" USING btree ("views") WHERE "generations"."status" = 'ready';--> statement-breakpoint
CREATE INDEX "generations_ready_downloads_idx" ON "generations" USING btree ("download_count") WHERE "generations"."status" = 'ready';--> statement-breakpoint
CREATE INDEX "generations_prediction_idx" ON "generations" USING btree ("prediction_id");--> statement-breakpoint
CREATE INDEX "generations_upscale_idx" ON "generations" USING btree ("upscale_id");--> statement-breakpoint
CREATE UNIQUE INDEX "products_generation_url_key" ON "products" USING btree ("generation_id","url");--> statement-breakpoint
CREATE INDEX "products_created_idx" ON "products" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "products_views_idx" ON "products" USING btree ("views");--> statement-breakpoint
CREATE UNIQUE INDEX "shop_orders_order_key" ON "shop_orders" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "shop_orders_provider_order_key" ON "shop_orders" USING btree ("provider","provider_order_id");--> statement-breakpoint
CREATE INDEX "shop_orders_open_idx" ON "shop_orders" USING btree ("status","updated_at") WHERE "shop_orders"."status" in ('paid', 'created', 'in_production', 'shipped');--> statement-breakpoint
CREATE INDEX "shop_orders_seller_idx" ON "shop_orders" USING btree ("seller_user_id");