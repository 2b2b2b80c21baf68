-- Access rules by record (issue 35): a role's permission on a kind can
-- carry a rule, a filter narrowing it to the records it matches
-- (records.Guard). A JSON object, permission name -> rule text; '{}'
-- for a role without rules, as every role written before this is.
--
-- An expand step: the previous release reads roles without this column
-- and writes them with the default (its roles import drops the rules,
-- which the next import through this release puts back).
-- oldest binary: 29
ALTER TABLE roles ADD COLUMN rules TEXT NOT NULL DEFAULT '{}';
