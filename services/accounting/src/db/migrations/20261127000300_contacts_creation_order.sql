-- The contact list's default order is newest first by created_at, and contacts created in the same
-- instant were ordered by their random ids: on the embedded database now() has millisecond
-- resolution, and with the signed-in caller kept in memory (issue 9) consecutive requests can
-- create two contacts within one millisecond. `seq` records the order rows were inserted in (an
-- identity: a sequence, never reused) and breaks such ties in every sort. Internal: never in an
-- API answer.
ALTER TABLE contacts ADD COLUMN seq bigint GENERATED ALWAYS AS IDENTITY;
DROP INDEX contacts_org_created;
CREATE INDEX contacts_org_created ON contacts (organization_id, created_at DESC, seq DESC);
