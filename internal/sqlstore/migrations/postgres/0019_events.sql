-- Live updates (issue 18): the events a tenant's open streams are sent,
-- kept 24 hours so a client that reconnects (to any instance) resumes
-- after the last one it had. id is the tenant's own counter
-- (tenant_sequences, name 'events'), taken in the writing transaction
-- and locked until it commits, so ids commit in order and without gaps.
-- type is 'record' or 'list'; kind the record kind; role_id, when not 0,
-- the one role a 'list' event is for; data the event's own JSON fields.
CREATE TABLE events (
    tenant_id TEXT   NOT NULL,
    id        BIGINT NOT NULL,
    type      TEXT   NOT NULL,
    kind      TEXT   NOT NULL,
    role_id   BIGINT NOT NULL DEFAULT 0,
    user_id   BIGINT NOT NULL DEFAULT 0,
    at        BIGINT NOT NULL,
    data      TEXT   NOT NULL,
    PRIMARY KEY (tenant_id, id)
);
CREATE INDEX events_at ON events (tenant_id, at);
