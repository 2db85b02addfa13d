-- Reference data: units of measure shared by every client. Id 1 (Each) is the default unit.
INSERT INTO "units_of_measure" ("id", "name") OVERRIDING SYSTEM VALUE VALUES
  (1, 'Each'), (2, 'Box'), (3, 'Hour'), (4, 'Day'), (5, 'Month'), (6, 'Gallon'), (7, 'Pound'), (8, 'Visit')
ON CONFLICT DO NOTHING;
--> statement-breakpoint
SELECT setval(pg_get_serial_sequence('units_of_measure', 'id'), (SELECT max("id") FROM "units_of_measure"));
