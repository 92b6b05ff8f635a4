-- Extensions the schema relies on: trigram matching for typo-tolerant title and author search,
-- and accent folding. Both ship with PostgreSQL's contrib and with PGlite.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS unaccent;
