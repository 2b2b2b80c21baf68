-- Reports are saved lists with a report part (issue 6): grouping,
-- aggregates and a chart, as JSON. NULL for plain saved lists.
ALTER TABLE list_configs ADD COLUMN report TEXT;
