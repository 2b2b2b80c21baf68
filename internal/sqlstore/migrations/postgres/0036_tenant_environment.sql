-- A tenant's environment badge (issue 39): the name the app's top bar
-- shows beside the product's (Sandbox, Training), '' for the
-- deployment's PORTICO_ENVIRONMENT. Written by `portico tenants add
-- -environment` and `portico tenants environment`.
--
-- An expand step: a new column with a default, which the previous release
-- does not read.
-- oldest binary: 31
ALTER TABLE tenants ADD COLUMN environment TEXT NOT NULL DEFAULT '';
