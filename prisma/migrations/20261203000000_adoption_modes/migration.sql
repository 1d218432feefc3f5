-- Issue 40: an adopted FRED registry runs the console in one of three modes (README "Running on an
-- existing FRED database"):
--   beside: FRED keeps its engine, its triggers and update_object_states; the console adds schema
--           console only (and the indexes the dry run lists);
--   shadow: as beside, and the console's engine also runs into its own tables, compared with FRED's;
--   charge: the console's engine in FRED's place (adoption until now: a registry adopted before stays so).
-- A registry the console created is always in charge of its own engine.
ALTER TABLE console.registry_origin
    ADD COLUMN mode text NOT NULL DEFAULT 'charge' CHECK (mode IN ('beside', 'shadow', 'charge')),
    ADD COLUMN mode_since timestamptz NOT NULL DEFAULT now(),
    ADD CONSTRAINT registry_origin_created_in_charge CHECK (origin = 'adopted' OR mode = 'charge');
