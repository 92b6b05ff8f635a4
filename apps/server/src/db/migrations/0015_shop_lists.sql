ALTER TABLE "generations" ADD COLUMN "shuffle" integer DEFAULT floor(random() * 2147483647)::int NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "shuffle" integer DEFAULT floor(random() * 2147483647)::int NOT NULL;--> statement-breakpoint
CREATE INDEX "generations_ready_shuffle_idx" ON "generations" USING btree ("shuffle") WHERE "generations"."status" = 'ready';--> statement-breakpoint
CREATE INDEX "generations_prompt_trgm_idx" ON "generations" USING gin ("prompt" gin_trgm_ops) WHERE "generations"."status" = 'ready';--> statement-breakpoint
CREATE INDEX "products_shuffle_idx" ON "products" USING btree ("shuffle");