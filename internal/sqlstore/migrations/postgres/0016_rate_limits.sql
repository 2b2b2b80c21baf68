-- Sign-in limits shared by every instance (issue 15).
--
-- One row per limited key ("login:ip:192.0.2.7", "login:acct:<tenant>:<uid>",
-- "refresh:ip:..."): the generic cell rate algorithm's theoretical arrival
-- time, in Unix milliseconds. A row whose tat has passed means the same as no
-- row (a full bucket), so such rows are deleted as they are found. Keys come
-- before any tenant is known and hold no secrets; the table is not tenant
-- data. Unlogged: the rows are worthless after a crash (every bucket starts
-- full again), so their many small writes skip the write-ahead log.
CREATE UNLOGGED TABLE rate_limits (
    key TEXT    PRIMARY KEY,
    tat BIGINT  NOT NULL
);

CREATE INDEX rate_limits_tat ON rate_limits (tat);
