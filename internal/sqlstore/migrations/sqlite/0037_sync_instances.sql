-- The instances serving a database's tenants' syncs (issue 39), each
-- seen again every few seconds while it runs: how many there are gives
-- each its share of the tenants' sync leases (companies ÷ live
-- instances), so a new instance takes its part and none takes them all.
-- A row is an instance's name and when it is no longer counted unless
-- seen again; rows long past are removed by the instances still running.
--
-- An expand step: a new table, which the previous release does not read.
-- oldest binary: 31
CREATE TABLE sync_instances (
    instance TEXT   NOT NULL PRIMARY KEY,
    until    BIGINT NOT NULL
);
