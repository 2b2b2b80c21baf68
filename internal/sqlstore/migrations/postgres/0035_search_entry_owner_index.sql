-- A search under the rule "owner eq $me" (issue 35) reads the owner's own
-- newest entries whose name starts with the text (Tenant.OwnerSearch),
-- newest first along this index, where it read the first page of the
-- owner's list with the text (at a million projects, a text that starts
-- 11% of the names: a quarter of such a search's time).
--
-- An expand step: an index, which the previous release's statements may
-- use or not.
-- oldest binary: 31
CREATE INDEX search_entries_owner ON search_entries (tenant_id, kind, owner, seq);
