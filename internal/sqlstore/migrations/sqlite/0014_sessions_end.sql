-- Sessions that end (issue 17).
--
-- A used refresh token names the token that replaced it (its hash), so a
-- retry within the grace window answers that same successor instead of
-- starting a second chain.
ALTER TABLE refresh_tokens ADD COLUMN successor TEXT;

-- Taking a user's access away now revokes their sessions; sessions of users
-- who are already disabled or hold no role end here, so enabling them again
-- later does not revive a sign-in from before this version.
UPDATE sessions SET revoked_at = CAST(strftime('%s', 'now') AS INTEGER) * 1000
WHERE revoked_at IS NULL AND EXISTS (
    SELECT 1 FROM users u
    WHERE u.tenant_id = sessions.tenant_id AND u.id = sessions.user_id
      AND (u.disabled <> 0 OR NOT EXISTS (
          SELECT 1 FROM user_roles ur WHERE ur.tenant_id = u.tenant_id AND ur.user_id = u.id)));

-- A revoked session keeps no refresh tokens (as RevokeSession does).
DELETE FROM refresh_tokens WHERE EXISTS (
    SELECT 1 FROM sessions s
    WHERE s.tenant_id = refresh_tokens.tenant_id AND s.id = refresh_tokens.session_id AND s.revoked_at IS NOT NULL);
