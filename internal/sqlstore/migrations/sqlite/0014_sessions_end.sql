-- Sessions that end (issue 17).
--
-- A used refresh token names the token that replaced it (its hash), so a
-- retry within the grace window answers that same successor instead of
-- starting a second chain.
ALTER TABLE refresh_tokens ADD COLUMN successor TEXT;
