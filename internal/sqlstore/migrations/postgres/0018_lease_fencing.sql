-- The sync lease's fencing token (issue 15). It grows whenever the lease
-- changes hands, and every write a holder makes on the lease's behalf
-- checks, in its own transaction, that the token is still the lease's: a
-- holder that lost the lease (paused, cut off) cannot overwrite its
-- successor's work. A release keeps the row (until = 0), so a token never
-- comes back.
ALTER TABLE sync_leases ADD COLUMN token BIGINT NOT NULL DEFAULT 0;
