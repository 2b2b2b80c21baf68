-- Recent records and favourites (issue 16): each user's shortlists of
-- records, kept on the server so they follow the user to any browser.
--
-- shelf is 'recent' (the records the user opened last, newest first,
-- capped: the oldest are pruned in the writing transaction) or
-- 'favourite' (the records the user starred, bounded: a full shelf refuses
-- another). seq orders a user's entries, newest highest: it comes from the
-- user's own counter in tenant_sequences (name 'shortlist:<user id>'),
-- whose row lock the writing transaction holds until it ends, so one
-- user's writes queue on every instance and the caps hold under
-- concurrency. at is when (Unix ms), for display. An entry whose record
-- has been deleted since is never answered (reads join records) and is
-- pruned by the user's next write to that shelf.
CREATE TABLE shortlists (
    tenant_id TEXT    NOT NULL,
    user_id   INTEGER NOT NULL,
    shelf     TEXT    NOT NULL CHECK (shelf IN ('recent', 'favourite')),
    kind      TEXT    NOT NULL,
    record_id INTEGER NOT NULL,
    seq       INTEGER NOT NULL,
    at        INTEGER NOT NULL,
    PRIMARY KEY (tenant_id, user_id, shelf, kind, record_id),
    FOREIGN KEY (tenant_id, user_id) REFERENCES users (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX shortlists_seq ON shortlists (tenant_id, user_id, shelf, seq);
