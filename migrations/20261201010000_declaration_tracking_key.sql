-- The tracking-number search ignores case, spaces and hyphens ("1z 999aa1..." finds
-- "1Z999AA1..."): the list filter compares this key (query/src/declaration_list/filter.rs,
-- TRACKING_KEY), so it gets an index of its own.
CREATE INDEX rm_declarations_tracking_key_idx
    ON rm_declarations ((upper(regexp_replace(tracking_number, '[[:space:]-]', '', 'g'))));
