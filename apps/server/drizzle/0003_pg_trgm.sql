-- Trigram search for the customer list (PGlite loads the extension at start; PostgreSQL ships it in contrib).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
